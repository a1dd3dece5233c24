"""Unit tests against a scripted loopback server: request shapes, error mapping, retries, parsing, secrecy."""

import io
import logging
import os
import socket
import unittest
from datetime import datetime, timedelta, timezone
from unittest import mock

import memloop
from memloop import MemLoopClient

from stub import DROP, MEMORY, Reply, Stub, error, memory

KEY = "mlk_secret-key-0123456789"


def client(stub: Stub, **kwargs) -> MemLoopClient:
    kwargs.setdefault("api_key", KEY)
    kwargs.setdefault("namespace", "team-a")
    c = MemLoopClient(stub.url, **kwargs)
    c._sleep = lambda seconds: None  # retries wait for nothing in tests
    return c


def refused_url() -> "tuple[str, socket.socket]":
    """A loopback port bound but not listening: every connection to it is refused, at once."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    return "http://127.0.0.1:%d" % s.getsockname()[1], s


REWARD = {"retrievalId": "r_1", "reward": 1.0, "updated": [{"id": "m_abc", "qBefore": 0.0, "qAfter": 0.1, "visits": 1}]}
RETRIEVAL = {"retrievalId": "r_1", "namespace": "team-a",
             "candidates": [{"id": "m_abc", "similarity": 0.9, "q": 0.25, "score": 0.5, "selected": True, "probability": 1.0}],
             "selected": [MEMORY]}
PAGE = {"namespace": "team-a", "memories": [MEMORY], "next": None, "total": 1}


class RequestShapes(unittest.TestCase):
    def setUp(self):
        self.stub = Stub().__enter__()
        self.addCleanup(self.stub.__exit__)
        self.c = client(self.stub)

    def test_retrieve_postsIntentAndEmbedding_withKeyAndJsonContentType(self):
        self.stub.script(Reply(200, RETRIEVAL))
        r = self.c.retrieve("restart nginx", embedding=[0.5, 1])
        seen = self.stub.seen[0]
        self.assertEqual(("POST", "/v1/namespaces/team-a/retrieve"), (seen.method, seen.path))
        self.assertEqual({"intent": "restart nginx", "embedding": [0.5, 1]}, seen.json())
        self.assertEqual("Bearer " + KEY, seen.headers["authorization"])
        self.assertEqual("application/json", seen.headers["content-type"])
        self.assertEqual("r_1", r.retrieval_id)
        self.assertEqual("m_abc", r.selected[0].id)
        self.assertTrue(r.candidates[0].selected)

    def test_reward_sendsOnlyTheFieldsGiven(self):
        self.stub.script(Reply(200, REWARD), Reply(200, dict(REWARD, target=1.5)))
        plain = self.c.reward("r_1", 1)
        td = self.c.reward("r_1", -0.5, used_memory_ids=["m_abc"], next_retrieval_id="r_2")
        self.assertEqual({"retrievalId": "r_1", "reward": 1}, self.stub.seen[0].json())
        self.assertEqual({"retrievalId": "r_1", "reward": -0.5, "usedMemoryIds": ["m_abc"], "nextRetrievalId": "r_2"},
                         self.stub.seen[1].json())
        self.assertIsNone(plain.target)
        self.assertEqual(1.5, td.target)
        self.assertEqual(0.1, plain.updated[0].q_after)

    def test_remember_withRetrievalId(self):
        self.stub.script(Reply(201, MEMORY))
        m = self.c.remember("restart nginx", "systemctl restart nginx", "success", retrieval_id="r_1")
        self.assertEqual({"intent": "restart nginx", "experience": "systemctl restart nginx", "outcome": "success", "retrievalId": "r_1"},
                         self.stub.seen[0].json())
        self.assertEqual(("POST", "/v1/namespaces/team-a/memories"), (self.stub.seen[0].method, self.stub.seen[0].path))
        self.assertEqual(["systemctl restart nginx"], m.parts)

    def test_endEpisode_postsOneBodyToEpisodes(self):
        self.stub.script(Reply(201, {"reward": REWARD, "memory": MEMORY}))
        end = self.c.end_episode("r_1", 1, "restart nginx", "systemctl restart nginx", "success", used_memory_ids=["m_abc"])
        seen = self.stub.seen[0]
        self.assertEqual(("POST", "/v1/namespaces/team-a/episodes"), (seen.method, seen.path))
        self.assertEqual({"retrievalId": "r_1", "reward": 1, "usedMemoryIds": ["m_abc"], "intent": "restart nginx",
                          "experience": "systemctl restart nginx", "outcome": "success"}, seen.json())
        self.assertEqual("r_1", end.reward.retrieval_id)
        self.assertEqual("m_abc", end.memory.id)

    def test_getEditForget_quoteTheIdIntoThePath(self):
        self.stub.script(Reply(200, MEMORY), Reply(200, memory(experience="new")), Reply(204))
        self.c.get("m_a/b?c")
        edited = self.c.edit("m_abc", "new")
        self.assertIsNone(self.c.forget("m_abc"))
        self.assertEqual(("GET", "/v1/namespaces/team-a/memories/m_a%2Fb%3Fc"), (self.stub.seen[0].method, self.stub.seen[0].path))
        self.assertEqual(("PATCH", "/v1/namespaces/team-a/memories/m_abc"), (self.stub.seen[1].method, self.stub.seen[1].path))
        self.assertEqual({"experience": "new"}, self.stub.seen[1].json())
        self.assertEqual("new", edited.experience)
        self.assertEqual(("DELETE", "/v1/namespaces/team-a/memories/m_abc", b""),
                         (self.stub.seen[2].method, self.stub.seen[2].path, self.stub.seen[2].body))

    def test_list_sendsEveryFilterAsTheApiNamesIt(self):
        self.stub.script(Reply(200, PAGE))
        plus_two = timezone(timedelta(hours=2))
        page = self.c.list(text="nginx restart", outcome=["success", "failure"], min_q=-0.5, max_q=1.0, min_visits=1, max_visits=9,
                           created_from=datetime(2025, 1, 31, 14, 0, tzinfo=plus_two),
                           created_to="2025-02-01T00:00:00Z",
                           updated_from=datetime(2025, 1, 1, tzinfo=timezone.utc),
                           updated_to=datetime(2025, 1, 2, 3, 4, 5, 6, tzinfo=timezone.utc),
                           sort="q", order="desc", limit=10, after="cursor-1")
        self.assertEqual([("limit", "10"), ("after", "cursor-1"), ("text", "nginx restart"), ("outcome", "success,failure"),
                          ("minQ", "-0.5"), ("maxQ", "1.0"), ("minVisits", "1"), ("maxVisits", "9"),
                          ("createdFrom", "2025-01-31T12:00:00Z"), ("createdTo", "2025-02-01T00:00:00Z"),
                          ("updatedFrom", "2025-01-01T00:00:00Z"), ("updatedTo", "2025-01-02T03:04:05.000006Z"),
                          ("sort", "q"), ("order", "desc")], self.stub.seen[0].query)
        self.assertEqual(1, page.total)
        self.assertIsNone(page.next)

    def test_list_withoutFilters_sendsNoQuery(self):
        self.stub.script(Reply(200, PAGE))
        self.c.list()
        self.assertEqual([], self.stub.seen[0].query)

    def test_list_naiveDatetime_isRefusedBeforeSending(self):
        with self.assertRaisesRegex(ValueError, "createdFrom: a datetime with a time zone"):
            self.c.list(created_from=datetime(2025, 1, 1))
        self.assertEqual([], self.stub.seen)

    def test_iterMemories_followsNextUntilNull_keepingTheFilters(self):
        self.stub.script(Reply(200, dict(PAGE, memories=[memory(id="m_1"), memory(id="m_2")], next="c1", total=3)),
                         Reply(200, dict(PAGE, memories=[memory(id="m_3")], next=None, total=3)))
        ids = [m.id for m in self.c.iter_memories(outcome="failure", sort="visits", page_size=2)]
        self.assertEqual(["m_1", "m_2", "m_3"], ids)
        self.assertEqual([("limit", "2"), ("outcome", "failure"), ("sort", "visits")], self.stub.seen[0].query)
        self.assertEqual([("limit", "2"), ("after", "c1"), ("outcome", "failure"), ("sort", "visits")], self.stub.seen[1].query)

    def test_iterMemories_aServerRepeatingItsCursor_isAnErrorNotALoop(self):
        self.stub.script(Reply(200, dict(PAGE, next="c1")), Reply(200, dict(PAGE, next="c1")))
        with self.assertRaises(memloop.UnexpectedResponse):
            list(self.c.iter_memories())

    def test_configStatsNamespaces(self):
        self.stub.script(Reply(200, {"namespace": "team-a", "recorded": True, "knobs": {"k1": "10"}}),
                         Reply(200, {"namespace": "team-a", "recorded": True, "knobs": {"k1": "5"}}),
                         Reply(200, {"namespace": "team-a", "memories": 3, "intents": 2, "pendingRetrievals": 0, "successes": 2,
                                     "failures": 1, "meanQ": 0.1, "minQ": 0, "maxQ": 0.3, "totalVisits": 7,
                                     "model": {"id": "hashing-384", "dimension": 384}}),
                         Reply(200, {"namespaces": ["team-a"]}))
        self.assertEqual({"k1": "10"}, self.c.configure("memrl", {"k1": 10}).knobs)
        self.assertEqual("5", self.c.config().knobs["k1"])
        stats = self.c.stats()
        self.assertEqual(["team-a"], self.c.namespaces())
        self.assertEqual({"preset": "memrl", "knobs": {"k1": 10}}, self.stub.seen[0].json())
        self.assertEqual(("PUT", "/v1/namespaces/team-a/config"), (self.stub.seen[0].method, self.stub.seen[0].path))
        self.assertEqual(("GET", "/v1/namespaces/team-a/stats"), (self.stub.seen[2].method, self.stub.seen[2].path))
        self.assertEqual(("GET", "/v1/namespaces"), (self.stub.seen[3].method, self.stub.seen[3].path))
        self.assertEqual(7, stats.total_visits)
        self.assertEqual(memloop.EmbeddingModel("hashing-384", 384), stats.model)

    def test_getRequests_carryNoBodyAndNoContentType(self):
        self.stub.script(Reply(200, MEMORY))
        self.c.get("m_abc")
        self.assertNotIn("content-type", self.stub.seen[0].headers)
        self.assertEqual(b"", self.stub.seen[0].body)

    def test_namespace_perCallWinsOverTheClients_andNoneAtAllIsRefusedBeforeSending(self):
        self.stub.script(Reply(200, MEMORY))
        self.c.get("m_abc", namespace="team-b")
        self.assertEqual("/v1/namespaces/team-b/memories/m_abc", self.stub.seen[0].path)
        bare = client(self.stub, namespace=None)
        with self.assertRaisesRegex(ValueError, "namespace"):
            bare.stats()
        self.assertEqual(1, len(self.stub.seen))

    def test_basePathPrefix_isKept(self):
        self.stub.script(Reply(200, {"status": "ok"}))
        c = client(self.stub)
        c2 = MemLoopClient(self.stub.url + "/memloop/", api_key=KEY)
        c2._sleep = c._sleep
        self.assertEqual("ok", c2.health())
        self.assertEqual("/memloop/v1/health", self.stub.seen[0].path)

    def test_apiKey_fromTheEnvironment_andNoneMeansNoHeader(self):
        self.stub.script(Reply(200, {"namespaces": []}), Reply(200, {"namespaces": []}))
        with mock.patch.dict(os.environ, {"MEMLOOP_API_KEY": "from-env"}):
            MemLoopClient(self.stub.url).namespaces()
        with mock.patch.dict(os.environ, {}, clear=True):
            MemLoopClient(self.stub.url).namespaces()
        self.assertEqual("Bearer from-env", self.stub.seen[0].headers["authorization"])
        self.assertNotIn("authorization", self.stub.seen[1].headers)

    def test_readyAndHealth(self):
        self.stub.script(Reply(200, {"status": "ready"}), Reply(503, {"status": "stopping"}), Reply(200, {"status": "ok"}))
        self.assertTrue(self.c.ready())
        self.assertFalse(self.c.ready())
        self.assertEqual("ok", self.c.health())
        self.assertEqual(3, len(self.stub.seen))  # a 503 from ready is its answer, not a reason to retry

    def test_openapiAndMetrics(self):
        self.stub.script(Reply(200, {"openapi": "3.1.0"}), Reply(200, b"memloop_x 1\n", content_type="text/plain"))
        self.assertEqual("3.1.0", self.c.openapi()["openapi"])
        self.assertEqual("memloop_x 1\n", self.c.metrics())

    def test_badArguments_areRefusedBeforeSending(self):
        with self.assertRaisesRegex(ValueError, "NaN or an infinite"):
            self.c.reward("r_1", float("nan"))
        with self.assertRaisesRegex(TypeError, "reward: must be a number"):
            self.c.reward("r_1", True)  # type: ignore[arg-type]
        with self.assertRaisesRegex(ValueError, "base_url"):
            MemLoopClient("localhost:7070")
        with self.assertRaisesRegex(ValueError, "retries"):
            MemLoopClient(self.stub.url, retries=-1)
        self.assertEqual([], self.stub.seen)


class ErrorMapping(unittest.TestCase):
    def setUp(self):
        self.stub = Stub().__enter__()
        self.addCleanup(self.stub.__exit__)
        self.c = client(self.stub, retries=0)

    def test_everyStatus_mapsToItsClass_withTheServersCodeFieldAndMessage(self):
        cases = [(400, memloop.BadRequest), (401, memloop.Unauthorized), (403, memloop.Forbidden), (404, memloop.NotFound),
                 (405, memloop.MethodNotAllowed), (409, memloop.Conflict), (413, memloop.PayloadTooLarge),
                 (415, memloop.UnsupportedMediaType), (421, memloop.MisdirectedRequest), (418, memloop.MemLoopError),
                 (500, memloop.ServerError), (502, memloop.ServerError), (503, memloop.ServiceUnavailable)]
        for status, cls in cases:
            with self.subTest(status=status):
                self.stub.script(error(status, "code_%d" % status, "reward", "reward: message %d" % status))
                with self.assertRaises(cls) as caught:
                    self.c.reward("r_1", 1)
                e = caught.exception
                self.assertIs(cls, type(e))
                self.assertEqual((status, "code_%d" % status, "reward", "reward: message %d" % status), (e.status, e.code, e.field, e.message))
                self.assertIn("reward: message %d" % status, str(e))

    def test_anAnswerWithoutTheErrorBody_stillMapsByStatus(self):
        self.stub.script(Reply(502, b"<html>Bad Gateway</html>", content_type="text/html"))
        with self.assertRaises(memloop.ServerError) as caught:
            self.c.stats()
        self.assertEqual((502, "http_502", ""), (caught.exception.status, caught.exception.code, caught.exception.field))
        self.assertIn("Bad Gateway", caught.exception.message)

    def test_aSuccessThatIsNotTheApisShape_isUnexpectedResponse(self):
        self.stub.script(Reply(200, b"not json"), Reply(200, {"status": 1}), Reply(200, dict(MEMORY, q="high")))
        with self.assertRaises(memloop.UnexpectedResponse):
            self.c.health()
        with self.assertRaises(memloop.UnexpectedResponse):
            self.c.health()
        with self.assertRaisesRegex(memloop.UnexpectedResponse, "Memory.q"):
            self.c.get("m_abc")

    def test_errorsAreMemLoopErrors_andConnectionErrorIsTheBuiltinOneToo(self):
        self.assertTrue(issubclass(memloop.ServiceUnavailable, memloop.ServerError))
        for cls in (memloop.BadRequest, memloop.NotFound, memloop.ConnectionError, memloop.UnexpectedResponse):
            self.assertTrue(issubclass(cls, memloop.MemLoopError))
        self.assertTrue(issubclass(memloop.ConnectionError, ConnectionError))


class Retries(unittest.TestCase):
    def setUp(self):
        self.stub = Stub().__enter__()
        self.addCleanup(self.stub.__exit__)
        self.sleeps = []
        self.c = client(self.stub, retries=2, backoff=0.1, max_backoff=0.15)
        self.c._sleep = self.sleeps.append

    def test_get_retriesAfter503_withBoundedGrowingBackoff(self):
        self.stub.script(error(503, "store_unavailable", "", "down"), error(503, "store_unavailable", "", "down"), Reply(200, MEMORY))
        self.assertEqual("m_abc", self.c.get("m_abc").id)
        self.assertEqual(3, len(self.stub.seen))
        self.assertEqual(2, len(self.sleeps))
        self.assertTrue(0.05 <= self.sleeps[0] <= 0.1, self.sleeps)
        self.assertTrue(0.075 <= self.sleeps[1] <= 0.15, self.sleeps)  # 0.2 capped at max_backoff 0.15

    def test_get_givesUpAfterRetries(self):
        self.stub.script(*[error(503, "store_unavailable", "", "down")] * 3)
        with self.assertRaises(memloop.ServiceUnavailable):
            self.c.stats()
        self.assertEqual(3, len(self.stub.seen))

    def test_get_lostAnswer_isRetried(self):
        self.stub.script(DROP, Reply(200, MEMORY))
        self.assertEqual("m_abc", self.c.get("m_abc").id)
        self.assertEqual(2, len(self.stub.seen))

    def test_get_timedOut_isRetried_butPost_isNot(self):
        self.c.timeout = 0.2
        self.stub.script(Reply(200, MEMORY, delay_seconds=1.0), Reply(200, MEMORY))
        self.assertEqual("m_abc", self.c.get("m_abc").id)
        self.assertEqual(2, len(self.stub.seen))
        self.stub.seen.clear()
        self.stub.script(Reply(200, REWARD, delay_seconds=1.0), Reply(200, REWARD))
        with self.assertRaises(memloop.ConnectionError) as caught:
            self.c.reward("r_1", 1)
        self.assertTrue(caught.exception.sent)
        self.assertIn("timed out", caught.exception.message)
        self.assertEqual(1, len(self.stub.seen))

    def test_put_and_delete_areRetried(self):
        self.stub.script(error(502, "embedding_failed", "", "x"), Reply(200, {"namespace": "team-a", "recorded": True, "knobs": {}}),
                         DROP, Reply(204))
        self.c.configure("memrl")
        self.c.forget("m_abc")
        self.assertEqual(["PUT", "PUT", "DELETE", "DELETE"], [s.method for s in self.stub.seen])

    def test_delete_whoseFirstAnswerWasLost_andThen404_isGone(self):
        self.stub.script(DROP, error(404, "not_found", "memoryId", "memoryId: no memory"))
        self.assertIsNone(self.c.forget("m_abc"))
        self.assertEqual(2, len(self.stub.seen))

    def test_delete_404AtOnce_isNotFound(self):
        self.stub.script(error(404, "not_found", "memoryId", "memoryId: no memory"))
        with self.assertRaises(memloop.NotFound):
            self.c.forget("m_abc")

    def test_post_503_isNotRetried(self):
        self.stub.script(error(503, "store_unavailable", "", "down"))
        with self.assertRaises(memloop.ServiceUnavailable):
            self.c.reward("r_1", 1)
        self.assertEqual(1, len(self.stub.seen))
        self.assertEqual([], self.sleeps)

    def test_post_and_patch_lostAnswer_areNotRetried_theServerMayHaveActed(self):
        for call in (lambda: self.c.remember("t", "e", "success"), lambda: self.c.edit("m_abc", "e"),
                     lambda: self.c.end_episode("r_1", 1, "t", "e", "success")):
            self.stub.seen.clear()
            self.stub.script(DROP)
            with self.assertRaises(memloop.ConnectionError) as caught:
                call()
            self.assertTrue(caught.exception.sent)
            self.assertEqual(1, len(self.stub.seen))
        self.assertEqual([], self.sleeps)

    def test_post_refusedConnection_isRetried_itWasNeverSent(self):
        url, holder = refused_url()
        self.addCleanup(holder.close)
        c = MemLoopClient(url, api_key=KEY, namespace="team-a", retries=3, backoff=0.01)
        c._sleep = self.sleeps.append
        with self.assertRaises(memloop.ConnectionError) as caught:
            c.reward("r_1", 1)
        self.assertFalse(caught.exception.sent)
        self.assertIsNone(caught.exception.status)
        self.assertEqual(3, len(self.sleeps))  # 4 attempts

    def test_post_refusedThenListeningButSilent_isRetriedOnceAndThenNotAgain(self):
        url, holder = refused_url()
        self.addCleanup(holder.close)
        c = MemLoopClient(url, api_key=KEY, namespace="team-a", retries=1, backoff=0.01)

        def start_listening(seconds):  # the server comes up while the client waits
            holder.listen(1)
            self.sleeps.append(seconds)

        c._sleep = start_listening
        with self.assertRaises(memloop.ConnectionError) as caught:  # then it listens but never answers: the POST was sent
            c.timeout = 0.5
            c.reward("r_1", 1)
        self.assertTrue(caught.exception.sent)
        self.assertEqual(1, len(self.sleeps))

    def test_retriesZero_meansOneAttempt(self):
        c = client(self.stub, retries=0)
        self.stub.script(error(503, "store_unavailable", "", "down"))
        with self.assertRaises(memloop.ServiceUnavailable):
            c.get("m_abc")
        self.assertEqual(1, len(self.stub.seen))


class Parsing(unittest.TestCase):
    def test_instants_withNineDigitsZOrOffset_areUtc(self):
        from memloop._models import parse_instant
        self.assertEqual(datetime(2025, 1, 31, 12, 0, 0, 123456, tzinfo=timezone.utc), parse_instant("2025-01-31T12:00:00.123456789Z"))
        self.assertEqual(datetime(2025, 1, 31, 10, 0, tzinfo=timezone.utc), parse_instant("2025-01-31T12:00:00+02:00"))
        self.assertEqual(datetime(2025, 1, 31, 12, 0, 0, 100000, tzinfo=timezone.utc), parse_instant("2025-01-31T12:00:00.1Z"))
        with self.assertRaises(ValueError):
            parse_instant("yesterday")

    def test_statsOfAStoreThatRecordsNoModel_haveModelNone(self):
        from memloop._models import decode
        stats = {"namespace": "a", "memories": 0, "intents": 0, "pendingRetrievals": 0, "successes": 0, "failures": 0,
                 "meanQ": 0, "minQ": 0, "maxQ": 0, "totalVisits": 0}
        self.assertIsNone(decode(memloop.Stats, dict(stats, model=None)).model)
        self.assertIsNone(decode(memloop.Stats, stats).model)  # a server older than the model
        self.assertEqual(memloop.EmbeddingModel("hashing-v1-384", 384),
                         decode(memloop.Stats, dict(stats, model={"id": "hashing-v1-384", "dimension": 384})).model)

    def test_aMemoryFromAServerWithoutParts_hasItsExperienceAsTheOnlyPart(self):
        from memloop._models import decode
        old = dict(MEMORY)
        del old["parts"]
        self.assertEqual(["systemctl restart nginx"], decode(memloop.Memory, old).parts)

    def test_aMergedNote_keepsItsPartsNewestFirst(self):
        from memloop._models import decode
        m = decode(memloop.Memory, memory(experience="b\n--- earlier attempt ---\na", parts=["b", "a"], outcome="failure"))
        self.assertEqual(["b", "a"], m.parts)


class Secrecy(unittest.TestCase):
    def test_theKeyIsInNoReprLogOrError(self):
        with Stub() as stub:
            c = client(stub)
            self.assertNotIn(KEY, repr(c))
            self.assertIn("'***'", repr(c))
            stub.script(error(401, "unauthorized", "", "no valid API key"), DROP)
            buffer = io.StringIO()
            handler = logging.StreamHandler(buffer)
            logger = logging.getLogger("memloop")
            logger.addHandler(handler)
            logger.setLevel(logging.DEBUG)
            try:
                with self.assertRaises(memloop.Unauthorized) as unauthorized:
                    c.stats()
                with self.assertRaises(memloop.ConnectionError) as lost:
                    c.reward("r_1", 1)
            finally:
                logger.removeHandler(handler)
                logger.setLevel(logging.NOTSET)
            self.assertIn("/v1/namespaces/team-a/stats -> 401", buffer.getvalue())
            for text in (buffer.getvalue(), str(unauthorized.exception), repr(unauthorized.exception), str(lost.exception)):
                self.assertNotIn(KEY, text)

    def test_aKeyWithALineBreak_isRefused_withoutShowingIt(self):
        with self.assertRaises(ValueError) as caught:
            MemLoopClient("http://127.0.0.1:1", api_key="abc\r\nX-Evil: 1")
        self.assertNotIn("X-Evil", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
