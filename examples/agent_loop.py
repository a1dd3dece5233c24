#!/usr/bin/env python3
"""A minimal agent loop against `memloop serve`, on the Python client (clients/python, standard library only).

Each round the "agent" gets tasks (here: ops chores, each with one right command). For every task it
  1. retrieves experiences for the task                          client.retrieve(task)
  2. acts as a careful LLM agent would: reuses a shown success recorded for this very task, avoids every
     command a shown failure note of this task lists (a note's `parts`: its attempts, newest first), and
     otherwise tries a command it has not seen fail
  3. ends the episode: the reward and what it did, in one write  client.end_episode(...)
and the success rate per round shows it learning from its own history (no weights, no training).

    export MEMLOOP_API_KEY="$KEY"          # from `memloop keys add`
    python3 examples/agent_loop.py --url http://localhost:7070 --namespace team-a --seed 1
"""
import argparse
import random
import sys
from pathlib import Path

try:
    import memloop
except ImportError:  # not installed (pip install ./clients/python): use the checkout's copy
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clients" / "python" / "src"))
    import memloop

TASKS = {
    "restart the web server on staging": "systemctl restart nginx",
    "free disk space on the build machine": "docker system prune -af",
    "renew the TLS certificate of the api": "certbot renew --cert-name api",
    "rotate the database password": "vault write -f database/rotate-root/main",
    "clear the CDN cache for the landing page": "cdnctl purge /index.html",
}
COMMANDS = sorted(TASKS.values())


def choose(task, retrieval, rng):
    """The command to run for `task`, the success memory it follows (or None), and the failed commands it avoids."""
    same_task = [m for m in retrieval.selected if m.intent == task]
    worked = [m for m in same_task if m.outcome == "success"]
    if worked:
        return worked[0].experience, worked[0], set()
    # A failure note lists every failed attempt at its task (merged, newest first): avoid each of them.
    failed = {attempt for m in same_task if m.outcome == "failure" for attempt in m.parts}
    untried = [c for c in COMMANDS if c not in failed] or COMMANDS
    return rng.choice(untried), None, failed


def show_whole_notes(client):
    """A command that failed stays wrong here, so every attempt of a failure note is worth showing: the README's
    advice for such tasks is noteDepth=WHOLE (the default learns whether to show a long note whole or only its
    newest k2 attempts, which costs episodes). Every other knob of the namespace is kept."""
    config = client.config()
    if config.knobs.get("noteDepth") != "WHOLE":
        client.configure(knobs=dict(config.knobs, noteDepth="WHOLE"))
        print("namespace %s: noteDepth=WHOLE (was %s)" % (config.namespace, config.knobs.get("noteDepth")))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", default="http://localhost:7070")
    p.add_argument("--key-file", help="a file holding the API key (default: the environment variable MEMLOOP_API_KEY)")
    p.add_argument("--namespace", default="team-a")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep-config", action="store_true", help="do not set the namespace's noteDepth to WHOLE")
    a = p.parse_args()
    key = Path(a.key_file).read_text(encoding="utf-8").strip() if a.key_file else None
    client = memloop.MemLoopClient(a.url, api_key=key, namespace=a.namespace)
    rng = random.Random(a.seed)
    rates = []
    try:
        if not a.keep_config:
            show_whole_notes(client)
        for round_no in range(1, a.rounds + 1):
            successes = reused = avoided = 0
            for task, right in TASKS.items():
                retrieval = client.retrieve(task)
                command, used, failed = choose(task, retrieval, rng)
                ok = command == right
                successes += ok
                reused += used is not None
                avoided += len(failed)
                client.end_episode(
                    retrieval.retrieval_id,
                    1 if ok else -1,
                    task,
                    command,
                    "success" if ok else "failure",
                    used_memory_ids=[used.id] if used else [],  # credit only the memory it followed
                )
            rates.append(successes / len(TASKS))
            print("round %d: %d/%d tasks succeeded (%d reused a recorded success, %d failed commands avoided; %d memories)"
                  % (round_no, successes, len(TASKS), reused, avoided, client.stats().memories))
    except memloop.MemLoopError as e:  # the server explains: status, code, the field at fault, a message
        sys.exit("memloop: %s" % e)
    if rates[-1] < rates[0]:
        sys.exit("the agent did not improve: %s" % rates)


if __name__ == "__main__":
    main()
