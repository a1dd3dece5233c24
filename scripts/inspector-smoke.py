#!/usr/bin/env python3
"""The memory inspector against a running `memloop serve`, whatever its store (scripts/docs-solr-check runs it on
SolrCloud): the page is served, and each route it uses answers for a namespace that holds a memory of TASK.

    scripts/inspector-smoke.py URL KEY NAMESPACE TASK

Read-only apart from one retrieval and its reward (so that a memory gets a history). Exit 1 naming the first
route that failed.
"""
import json
import sys
import urllib.parse
import urllib.request

URL, KEY, NS, TASK = sys.argv[1:5]
BASE = "%s/v1/namespaces/%s" % (URL, urllib.parse.quote(NS, safe=""))


def call(method, path, body=None):
    req = urllib.request.Request(path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": "Bearer " + KEY, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read() or b"null")


def check(what, ok):
    if not ok:
        sys.exit("inspector-smoke: %s" % what)
    print("inspector-smoke: %s: ok" % what)


with urllib.request.urlopen(URL + "/ui", timeout=30) as res:
    check("GET /ui is the page", res.status == 200 and res.headers.get_content_type() == "text/html"
          and "script-src 'self'" in res.headers.get("Content-Security-Policy", ""))
why = call("POST", BASE + "/explain", {"intent": TASK})
check("explain shows a recalled memory", why["shown"] and why["candidates"][0]["shown"])
memory = why["candidates"][0]["memory"]
r = call("POST", BASE + "/retrieve", {"intent": TASK})
call("POST", BASE + "/rewards", {"retrievalId": r["retrievalId"], "reward": 1})
history = call("GET", BASE + "/memories/%s/history" % urllib.parse.quote(memory["id"], safe=""))
check("history has the reward just given", history["q"][-1]["retrievalId"] == r["retrievalId"]
      and history["retrievals"][0]["reward"] == 1)
call("GET", BASE + "/memories/%s/neighbours?limit=5" % urllib.parse.quote(memory["id"], safe=""))
check("neighbours answer", True)
overview = call("GET", BASE + "/overview")
check("overview counts the episode", overview["stats"]["memories"] >= 1
      and sum(b["rewards"] for b in overview["activity"]["buckets"]) >= 1)
events = call("GET", BASE + "/events")
check("events list the retrieval", any(e["type"] == "retrieved" and e.get("retrievalId") == r["retrievalId"]
                                       for e in events["events"]))
page = call("GET", BASE + "/memories?text=%s&limit=5" % urllib.parse.quote(memory["experience"].split()[0]))
check("search finds the memory", any(m["id"] == memory["id"] for m in page["memories"]))
report = call("GET", BASE + "/report")
check("report answers", isinstance(report["available"], bool))
