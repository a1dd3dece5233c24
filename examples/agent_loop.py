#!/usr/bin/env python3
"""A minimal agent loop against `memloop serve`, using only the Python standard library.

Each round the "agent" gets tasks (here: ops chores, each with one right command). For every task it
  1. retrieves experiences for the task            POST /v1/namespaces/{ns}/retrieve
  2. acts as a careful LLM agent would: reuses a shown success recorded for this very task, avoids the
     commands shown as failures for it, and otherwise tries a command it has not seen fail
  3. reports the outcome                           POST /v1/namespaces/{ns}/rewards
  4. remembers what it did and how it ended        POST /v1/namespaces/{ns}/memories (with the retrievalId)
and the success rate per round shows it learning from its own history (no weights, no training).

    python3 examples/agent_loop.py --url http://localhost:7070 --key "$KEY" --namespace team-a
"""
import argparse
import json
import random
import sys
import urllib.error
import urllib.request

TASKS = {
    "restart the web server on staging": "systemctl restart nginx",
    "free disk space on the build machine": "docker system prune -af",
    "renew the TLS certificate of the api": "certbot renew --cert-name api",
    "rotate the database password": "vault write -f database/rotate-root/main",
    "clear the CDN cache for the landing page": "cdnctl purge /index.html",
}
COMMANDS = sorted(TASKS.values())


def call(base, key, path, body):
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode("utf-8"),
        headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as e:  # the server explains: {"error": {"code", "field", "message"}}
        sys.exit("memloop answered %d: %s" % (e.code, e.read().decode("utf-8")))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", default="http://localhost:7070")
    p.add_argument("--key", required=True, help="API key from `memloop keys add`")
    p.add_argument("--namespace", default="team-a")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    ns = "/v1/namespaces/" + a.namespace
    rates = []
    for round_no in range(1, a.rounds + 1):
        successes = 0
        for task, right in TASKS.items():
            retrieval = call(a.url, a.key, ns + "/retrieve", {"intent": task})
            same_task = [m for m in retrieval["selected"] if m["intent"] == task]
            worked = [m for m in same_task if m["outcome"] == "success"]
            failed = {m["experience"] for m in same_task if m["outcome"] == "failure"}
            used = worked[0] if worked else None
            untried = [c for c in COMMANDS if c not in failed] or COMMANDS
            command = used["experience"] if used else rng.choice(untried)
            ok = command == right
            successes += ok
            call(a.url, a.key, ns + "/rewards", {
                "retrievalId": retrieval["retrievalId"],
                "reward": 1 if ok else -1,
                "usedMemoryIds": [used["id"]] if used else [],
            })
            call(a.url, a.key, ns + "/memories", {
                "intent": task,
                "experience": command,
                "outcome": "success" if ok else "failure",
                "retrievalId": retrieval["retrievalId"],  # links the episode: no second search, export pairs it
            })
        rates.append(successes / len(TASKS))
        print("round %d: %d/%d tasks succeeded" % (round_no, successes, len(TASKS)))
    if rates[-1] < rates[0]:
        sys.exit("the agent did not improve: %s" % rates)


if __name__ == "__main__":
    main()
