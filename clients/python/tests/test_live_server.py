"""Integration tests against a real `memloop serve` (started by clients/python/check).

The server and keys come from the environment: MEMLOOP_TEST_URL, MEMLOOP_TEST_KEY (a key for every namespace,
'*') and MEMLOOP_TEST_KEY_NARROW (a key for the namespace 'narrow' only). Each test works in a namespace of its
own. Without the environment these tests fail (they are never skipped): run them through ./check.
"""

import json
import os
import re
import subprocess
import sys
import unittest
import urllib.request
import uuid
from pathlib import Path

import memloop
from memloop import MemLoopClient

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
OPENAPI = REPO / "memloop-server" / "src" / "main" / "resources" / "io" / "memloop" / "server" / "openapi.json"
SEP = "\n--- earlier attempt ---\n"


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise AssertionError("%s is not set: these tests need a running `memloop serve`; run clients/python/check" % name)
    return value


class Live(unittest.TestCase):
    def setUp(self):
        self.url = env("MEMLOOP_TEST_URL")
        self.key = env("MEMLOOP_TEST_KEY")
        self.ns = "py-" + uuid.uuid4().hex[:16]
        self.c = MemLoopClient(self.url, api_key=self.key, namespace=self.ns, retries=0)

    def remember(self, intent="restart nginx on staging", experience="systemctl restart nginx", outcome="success", **kw):
        return self.c.remember(intent, experience, outcome, **kw)

    def assertBad(self, cls, field, call):
        with self.assertRaises(cls) as caught:
            call()
        self.assertEqual(field, caught.exception.field, repr(caught.exception))
        self.assertTrue(caught.exception.message, repr(caught.exception))
        return caught.exception


class LiveApi(Live):
    """Routes the server has today."""

    def test_healthAndReady(self):
        self.assertEqual("ok", self.c.health())
        self.assertTrue(self.c.ready())

    def test_rememberThenGet_roundTrips(self):
        m = self.remember()
        self.assertRegex(m.id, r"^m_[A-Za-z0-9_-]+$")
        self.assertEqual((self.ns, "restart nginx on staging", "systemctl restart nginx", "success", 0),
                         (m.namespace, m.intent, m.experience, m.outcome, m.visits))
        self.assertEqual(m, self.c.get(m.id))
        self.assertIsNotNone(m.created_at.tzinfo)

    def test_retrieveRewardUsed_movesTheUsedMemorysUtility(self):
        m = self.remember()
        r = self.c.retrieve("restart nginx on the staging box")
        self.assertEqual([m.id], [s.id for s in r.selected])
        self.assertEqual(m.id, r.candidates[0].id)
        self.assertTrue(0 <= r.candidates[0].probability <= 1)
        result = self.c.reward(r.retrieval_id, 1, used_memory_ids=[m.id])
        self.assertEqual(r.retrieval_id, result.retrieval_id)
        self.assertEqual([m.id], [u.id for u in result.updated])
        self.assertGreater(result.updated[0].q_after, result.updated[0].q_before)
        self.assertIsNone(result.target)
        self.assertEqual(result.updated[0].q_after, self.c.get(m.id).q)

    def test_rewardTwice_isConflict_onRetrievalId(self):
        self.remember()
        r = self.c.retrieve("restart nginx")
        self.c.reward(r.retrieval_id, 1)
        e = self.assertBad(memloop.Conflict, "retrievalId", lambda: self.c.reward(r.retrieval_id, 1))
        self.assertEqual((409, "conflict"), (e.status, e.code))

    def test_rewardWithNextRetrieval_hasATdTarget(self):
        self.c.configure(knobs={"gamma": 0.5})
        m = self.remember()
        warm = self.c.retrieve("restart nginx")
        self.c.reward(warm.retrieval_id, 1, used_memory_ids=[m.id])  # the next step's memory gets a utility above 0
        q_next = self.c.get(m.id).q
        step = self.c.retrieve("restart nginx")
        following = self.c.retrieve("restart nginx")
        result = self.c.reward(step.retrieval_id, 0, next_retrieval_id=following.retrieval_id)
        self.assertAlmostEqual(0 + 0.5 * q_next, result.target)

    def test_rememberWithRetrievalId_isAccepted(self):
        self.remember()
        r = self.c.retrieve("restart nginx on staging")
        m = self.remember(experience="nginx -s reload", outcome="failure", retrieval_id=r.retrieval_id)
        self.assertEqual("failure", m.outcome)

    def test_badFields_areBadRequests_namingTheField(self):
        m = self.remember()
        r = self.c.retrieve("restart nginx")
        self.assertBad(memloop.BadRequest, "reward", lambda: self.c.reward(r.retrieval_id, 5))
        self.assertBad(memloop.BadRequest, "outcome", lambda: self.c.remember("t", "e", "maybe"))  # type: ignore[arg-type]
        self.assertBad(memloop.BadRequest, "intent", lambda: self.c.retrieve())
        self.assertBad(memloop.BadRequest, "intent.embedding", lambda: self.c.retrieve(embedding=[0.1, 0.2]))
        self.assertBad(memloop.BadRequest, "limit", lambda: self.c.list(limit=0))
        self.assertBad(memloop.BadRequest, "knobs.nope", lambda: self.c.configure(knobs={"nope": 1}))
        self.assertEqual(m, self.c.get(m.id))  # nothing changed

    def test_unknownIds_areNotFound(self):
        self.assertBad(memloop.NotFound, "memoryId", lambda: self.c.get("m_doesnotexist0000000000"))
        self.assertBad(memloop.NotFound, "memoryId", lambda: self.c.forget("m_doesnotexist0000000000"))
        self.assertBad(memloop.NotFound, "retrievalId", lambda: self.c.reward("r_doesnotexist0000000000", 1))

    def test_forget_thenGetIsNotFound(self):
        m = self.remember()
        self.assertIsNone(self.c.forget(m.id))
        self.assertBad(memloop.NotFound, "memoryId", lambda: self.c.get(m.id))

    def test_listPages_andIterMemories_seeEveryMemoryOnceOldestFirst(self):
        made = [self.remember("task %d" % i, "did %d" % i).id for i in range(5)]
        first = self.c.list(limit=2)
        self.assertEqual(made[:2], [m.id for m in first.memories])
        self.assertIsNotNone(first.next)
        second = self.c.list(limit=2, after=first.next)
        self.assertEqual(made[2:4], [m.id for m in second.memories])
        self.assertEqual(made, [m.id for m in self.c.iter_memories(page_size=2)])
        self.assertEqual(made, [m.id for m in self.c.iter_memories(page_size=1000)])

    def test_stats_countTheNamespace(self):
        self.remember()
        self.remember("rotate the keys", "vault write -f rotate", "failure")
        s = self.c.stats()
        self.assertEqual((self.ns, 2, 1, 1), (s.namespace, s.memories, s.successes, s.failures))

    def test_configure_recordsKnobs_forTheNextCalls(self):
        before = self.c.config()
        self.assertFalse(before.recorded)
        after = self.c.configure("default", {"k1": 7, "alpha": 0.25})
        self.assertTrue(after.recorded)
        self.assertEqual(("7", "0.25"), (after.knobs["k1"], after.knobs["alpha"]))
        self.assertEqual(after, self.c.config())

    def test_namespaces_listTheOnesWithData(self):
        self.remember()
        self.assertIn(self.ns, self.c.namespaces())

    def test_wrongKey_isUnauthorized_andAnotherTenantsNamespaceIsNotFound(self):
        bad = MemLoopClient(self.url, api_key="mlk_not-a-key", namespace=self.ns, retries=0)
        with self.assertRaises(memloop.Unauthorized) as caught:
            bad.stats()
        self.assertEqual((401, "unauthorized"), (caught.exception.status, caught.exception.code))
        narrow = MemLoopClient(self.url, api_key=env("MEMLOOP_TEST_KEY_NARROW"), namespace="narrow", retries=0)
        narrow.remember("t", "e", "success")
        self.assertEqual(["narrow"], narrow.namespaces())
        self.assertBad(memloop.NotFound, "namespace", lambda: narrow.stats(namespace=self.ns))

    def test_aBodyOverTheLimit_isPayloadTooLarge(self):
        e = self.assertBad(memloop.PayloadTooLarge, "body", lambda: self.c.remember("t", "x" * (1 << 20), "success"))
        self.assertEqual(413, e.status)

    def test_anExperienceOverItsLimit_isBadRequest(self):
        self.assertBad(memloop.BadRequest, "experience", lambda: self.c.remember("t", "x" * 70_000, "success"))

    def test_openapi_isTheCheckedInDocument_andMetricsArePrometheusText(self):
        self.assertEqual(json.loads(OPENAPI.read_text(encoding="utf-8")), self.c.openapi())
        self.assertIn("memloop_", self.c.metrics())

    def test_theServerSpeaksTheClientsLanguage_noUnknownFieldsAreSent(self):
        # the server refuses unknown fields: every body this client sends on today's routes was accepted above;
        # this one sends every optional field of remember at once
        r = self.c.retrieve("restart nginx")
        m = self.c.remember("restart nginx", "systemctl restart nginx", "success", retrieval_id=r.retrieval_id)
        self.assertEqual("restart nginx", m.intent)


class LiveIssue25(Live):
    """Routes and fields of issue 25 (PATCH memories, list filters and total, episodes, parts, stats.model)."""

    def test_memoriesCarryParts_aMergedFailureNoteListsItsAttemptsNewestFirst(self):
        plain = self.remember()
        self.assertEqual([plain.experience], plain.parts)
        self.assertIn("parts", self.raw_memory(plain.id))
        r = self.c.retrieve("rotate the database password")
        self.c.remember("rotate the database password", "cmdA", "failure", retrieval_id=r.retrieval_id)
        r = self.c.retrieve("rotate the database password")
        note = self.c.remember("rotate the database password", "cmdB", "failure", retrieval_id=r.retrieval_id)
        self.assertEqual("cmdB" + SEP + "cmdA", note.experience)
        self.assertEqual(["cmdB", "cmdA"], note.parts)
        shown = [m for m in self.c.retrieve("rotate the database password").selected if m.id == note.id]
        self.assertEqual(["cmdB", "cmdA"], shown[0].parts)

    def raw_memory(self, memory_id):
        request = urllib.request.Request("%s/v1/namespaces/%s/memories/%s" % (self.url, self.ns, memory_id),
                                         headers={"Authorization": "Bearer " + self.key})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def test_edit_replacesTheExperienceInPlace(self):
        m = self.remember()
        edited = self.c.edit(m.id, "sudo systemctl restart nginx, then check /healthz")
        self.assertEqual((m.id, m.intent, m.intent_id, m.outcome, m.q, m.visits, m.created_at),
                         (edited.id, edited.intent, edited.intent_id, edited.outcome, edited.q, edited.visits, edited.created_at))
        self.assertEqual("sudo systemctl restart nginx, then check /healthz", edited.experience)
        self.assertGreaterEqual(edited.updated_at, m.updated_at)
        self.assertEqual(edited, self.c.get(m.id))

    def test_edit_blankOrUnknown_isRefused(self):
        m = self.remember()
        self.assertBad(memloop.BadRequest, "experience", lambda: self.c.edit(m.id, "  "))
        self.assertBad(memloop.NotFound, "memoryId", lambda: self.c.edit("m_doesnotexist0000000000", "x"))
        self.assertEqual(m, self.c.get(m.id))

    def test_list_filtersByTextOutcomeQAndVisits_withTotal(self):
        a = self.remember("restart nginx on staging", "systemctl restart nginx", "success")
        b = self.remember("free disk space", "docker system prune -af", "failure")
        c = self.remember("renew the TLS certificate", "certbot renew", "success")
        r = self.c.retrieve("restart nginx on staging")
        self.c.reward(r.retrieval_id, 1, used_memory_ids=[a.id])
        page = self.c.list(text="NGINX restart")
        self.assertEqual(([a.id], 1), ([m.id for m in page.memories], page.total))
        self.assertEqual([b.id], [m.id for m in self.c.list(outcome="failure").memories])
        self.assertEqual([a.id, b.id], [m.id for m in self.c.list(outcome=["success", "failure"], text="", limit=2).memories])
        self.assertEqual(3, self.c.list(outcome=["success", "failure"], limit=2).total)
        self.assertEqual([a.id], [m.id for m in self.c.list(min_visits=1).memories])
        self.assertEqual([b.id, c.id], [m.id for m in self.c.list(max_visits=0).memories])
        q_a = self.c.get(a.id).q
        self.assertEqual([a.id], [m.id for m in self.c.list(min_q=q_a, max_q=q_a).memories])
        self.assertEqual(a.id, self.c.list(sort="q", order="desc").memories[0].id)
        self.assertEqual(a.id, self.c.list(sort="updated", order="desc").memories[0].id)
        self.assertEqual([c.id, b.id, a.id], [m.id for m in self.c.list(order="desc").memories])

    def test_list_createdBounds_fromInclusive_toExclusive(self):
        a = self.remember("task a", "did a")
        b = self.remember("task b", "did b")
        self.assertEqual([b.id], [m.id for m in self.c.list(created_from=b.created_at).memories])
        self.assertEqual([a.id], [m.id for m in self.c.list(created_to=b.created_at).memories])
        self.assertEqual([a.id, b.id], [m.id for m in self.c.list(updated_from=a.updated_at).memories])

    def test_list_iterMemories_withFilters_walksEveryPage(self):
        made = [self.remember("task %d" % i, "did %d" % i, "failure" if i % 2 else "success").id for i in range(7)]
        self.assertEqual(made[1::2], [m.id for m in self.c.iter_memories(outcome="failure", page_size=2)])
        self.assertEqual(list(reversed(made)), [m.id for m in self.c.iter_memories(order="desc", page_size=3)])

    def test_list_badParameters_nameTheParameter(self):
        self.remember()
        self.assertBad(memloop.BadRequest, "sort", lambda: self.c.list(sort="sideways"))  # type: ignore[arg-type]
        self.assertBad(memloop.BadRequest, "order", lambda: self.c.list(order="up"))  # type: ignore[arg-type]
        self.assertBad(memloop.BadRequest, "outcome", lambda: self.c.list(outcome="maybe"))  # type: ignore[arg-type]
        self.assertBad(memloop.BadRequest, "createdFrom", lambda: self.c.list(created_from="yesterday"))
        self.assertBad(memloop.BadRequest, "after", lambda: self.c.list(after="forged-cursor"))
        self.remember("another", "x")
        cursor = self.c.list(limit=1).next
        other = MemLoopClient(self.url, api_key=self.key, namespace=self.ns + "-other", retries=0)
        other.remember("t", "e", "success")
        self.assertBad(memloop.BadRequest, "after", lambda: other.list(after=cursor))

    def test_endEpisode_rewardsAndRemembers_inOneWrite(self):
        m = self.remember()
        r = self.c.retrieve("restart nginx on staging")
        end = self.c.end_episode(r.retrieval_id, 1, "restart nginx on staging", "nginx -s reload", "success", used_memory_ids=[m.id])
        self.assertEqual(r.retrieval_id, end.reward.retrieval_id)
        self.assertEqual([m.id], [u.id for u in end.reward.updated])
        self.assertEqual(("nginx -s reload", "success"), (end.memory.experience, end.memory.outcome))
        self.assertEqual(end.memory, self.c.get(end.memory.id))
        self.assertEqual(2, self.c.stats().memories)

    def test_endEpisode_badOrRewardedRetrieval_writesNothing(self):
        self.remember()
        r = self.c.retrieve("restart nginx")
        self.assertBad(memloop.BadRequest, "outcome",
                       lambda: self.c.end_episode(r.retrieval_id, 1, "restart nginx", "x", "maybe"))  # type: ignore[arg-type]
        self.assertBad(memloop.BadRequest, "reward", lambda: self.c.end_episode(r.retrieval_id, 5, "restart nginx", "x", "success"))
        self.assertEqual(1, self.c.stats().memories)
        self.c.end_episode(r.retrieval_id, 1, "restart nginx", "x", "success")  # still unrewarded: the bad ones wrote nothing
        self.assertBad(memloop.Conflict, "retrievalId", lambda: self.c.end_episode(r.retrieval_id, 1, "restart nginx", "y", "success"))
        self.assertBad(memloop.NotFound, "retrievalId",
                       lambda: self.c.end_episode("r_doesnotexist0000000000", 1, "restart nginx", "z", "success"))
        self.assertEqual(2, self.c.stats().memories)

    def test_stats_nameTheEmbeddingModel(self):
        self.remember()
        model = self.c.stats().model
        self.assertIsNotNone(model)
        self.assertTrue(model.id)
        self.assertGreater(model.dimension, 0)

    def test_inspector_explainHistoryNeighboursOverviewEventsReport(self):
        m = self.remember()
        other = self.remember("rotate the billing API keys", "vault write -f billing/rotate-root", "success")
        why = self.c.explain("restart nginx on the staging box")
        self.assertEqual([m.id], why.shown)
        self.assertEqual(m.id, why.candidates[0].memory.id)
        self.assertTrue(why.candidates[0].shown and why.candidates[0].eligible)
        self.assertIn("Score", [s.step for s in why.steps])
        self.assertEqual(0, self.c.stats().pending_retrievals, "explain saves no retrieval")
        r = self.c.retrieve("restart nginx on the staging box")
        self.c.reward(r.retrieval_id, 1, used_memory_ids=[m.id])
        h = self.c.history(m.id)
        self.assertEqual(m.id, h.memory.id)
        self.assertEqual((r.retrieval_id, 1.0), (h.q[-1].retrieval_id, h.q[-1].reward))
        self.assertEqual(self.c.get(m.id).q, h.q[-1].q)
        self.assertEqual([(r.retrieval_id, True, 1.0)], [(x.retrieval_id, x.selected, x.reward) for x in h.retrievals])
        self.assertEqual([other.id], [n.memory.id for n in self.c.neighbours(m.id, limit=5).neighbours])
        o = self.c.overview()
        self.assertEqual((self.ns, 2), (o.namespace, o.stats.memories))
        self.assertEqual(1, sum(b.retrievals for b in o.activity.buckets))
        self.assertEqual(1, sum(b.successes for b in o.activity.buckets))
        events = self.c.events()
        self.assertEqual(["remembered", "remembered", "retrieved", "rewarded"],
                         [e.type for e in events.events if e.type != "configured"])
        self.assertEqual([], self.c.events(after=events.next).events)
        report = self.c.report()
        self.assertIsInstance(report.available, bool)
        if not report.available:
            self.assertTrue(report.reason)
        self.assertBad(memloop.BadRequest, "limit", lambda: self.c.neighbours(m.id, limit=0))
        self.assertBad(memloop.BadRequest, "limit", lambda: self.c.events(limit=501))
        self.assertBad(memloop.NotFound, "memoryId", lambda: self.c.history("m_doesnotexist0000000000"))


class AgentLoopExample(unittest.TestCase):
    """examples/agent_loop.py keeps the README's promise: 0-1 of 5 in round 1, 5 of 5 by round 5 for seeds 1-3."""

    def test_seeds1to3_learnEveryTaskByRound5(self):
        url, key = env("MEMLOOP_TEST_URL"), env("MEMLOOP_TEST_KEY")
        for seed in (1, 2, 3):
            with self.subTest(seed=seed):
                ns = "agent-loop-%d-%s" % (seed, uuid.uuid4().hex[:8])
                run = subprocess.run([sys.executable, str(REPO / "examples" / "agent_loop.py"), "--url", url, "--namespace", ns,
                                      "--seed", str(seed)], env=dict(os.environ, MEMLOOP_API_KEY=key),
                                     capture_output=True, text=True, timeout=300)
                self.assertEqual(0, run.returncode, run.stdout + run.stderr)
                rounds = dict((int(n), int(s)) for n, s in re.findall(r"^round (\d+): (\d)/5 tasks succeeded", run.stdout, re.M))
                self.assertEqual([1, 2, 3, 4, 5], sorted(rounds), run.stdout)
                self.assertLessEqual(rounds[1], 1, run.stdout)
                self.assertEqual(5, rounds[5], run.stdout)


if __name__ == "__main__":
    unittest.main()
