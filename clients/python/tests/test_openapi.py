"""The client against the server's OpenAPI document (memloop-server/.../openapi.json).

An API change without a client change fails here: every operationId is covered by the client with the same
method and path; every request the client sends uses exactly the documented property and query-parameter
names; every answer the client reads has exactly the documented property names (nested objects too), and the
client reads a full documented answer of every operation.
"""

import json
import os
import unittest
from pathlib import Path
from typing import Any, Callable, Dict, Set

import memloop
from memloop import OPERATIONS, MemLoopClient
from memloop._errors import ERROR_FIELDS
from memloop._models import wire_fields

from stub import Reply, Stub

# MEMLOOP_OPENAPI_JSON: check the client against another version of the document (default: the checked-in one).
OPENAPI = Path(os.environ.get("MEMLOOP_OPENAPI_JSON") or (Path(__file__).resolve().parents[3] / "memloop-server" / "src" / "main"
                                                          / "resources" / "io" / "memloop" / "server" / "openapi.json"))
DOC = json.loads(OPENAPI.read_text(encoding="utf-8"))
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def documented() -> Dict[str, Dict[str, Any]]:
    """operationId -> {method, path, op}."""
    out = {}
    for path, item in DOC["paths"].items():
        for method, op in item.items():
            if method in METHODS:
                out[op["operationId"]] = {"method": method.upper(), "path": path, "op": op}
    return out


def resolve(schema: Dict[str, Any]) -> Dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        schema = DOC["components"]["schemas"][name]
    return schema


def success(op: Dict[str, Any]):
    """(status, schema or None) of the operation's 2xx answer."""
    for status, answer in op["responses"].items():
        if status.startswith("2"):
            schema = answer.get("content", {}).get("application/json", {}).get("schema")
            return int(status), None if schema is None else resolve(schema)
    raise AssertionError("no 2xx answer documented for %s" % op["operationId"])


def sample(schema: Dict[str, Any]) -> Any:
    """A value of ``schema`` with every property present (so the client must read all of them)."""
    schema = resolve(schema)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = [k for k in kind if k != "null"][0]
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        value = {name: sample(p) for name, p in props.items()}
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            value["k1"] = sample(extra)
        return value
    if kind == "array":
        return [sample(schema["items"])] if "items" in schema else []
    if kind == "string":
        return "2025-01-31T12:00:00.123456789Z" if schema.get("format") == "date-time" else "text"
    if kind == "number":
        return 0.5
    if kind == "integer":
        return 1
    if kind == "boolean":
        return True
    raise AssertionError("no sample for schema %r" % schema)


def compare(test: unittest.TestCase, schema: Dict[str, Any], cls: type, where: str) -> None:
    """The JSON names ``cls`` reads are exactly the schema's properties; the same for nested objects."""
    schema = resolve(schema)
    props = schema.get("properties", {})
    wire = wire_fields(cls)
    test.assertEqual(sorted(props), sorted(wire), "%s (%s): documented properties vs. the ones the client reads" % (where, cls.__name__))
    required = set(schema.get("required", []))
    for name, meta in wire.items():
        kind = resolve(props[name]).get("type") if name in props else None
        if isinstance(kind, list) and "null" in kind:
            try:
                meta["read"](None)
            except Exception as e:  # the client would refuse a documented answer
                test.fail("%s.%s may be null, the client cannot read null: %s" % (where, name, e))
        if meta["absent"] is None:
            test.assertIn(name, required, "%s.%s: the client needs it, the document does not promise it" % (where, name))
        if meta["model"] is not None and name in props:
            nested = props[name]
            nested = resolve(nested)
            if meta["many"]:
                test.assertEqual("array", nested.get("type"), "%s.%s should be an array" % (where, name))
                nested = nested["items"]
            compare(test, nested, meta["model"], "%s.%s" % (where, name))


# One call per operation, with every optional argument given, so that every documented field is sent.
CALLS: Dict[str, Callable[[MemLoopClient], Any]] = {
    "health": lambda c: c.health(),
    "ready": lambda c: c.ready(),
    "openapi": lambda c: c.openapi(),
    "metrics": lambda c: c.metrics(),
    "listNamespaces": lambda c: c.namespaces(),
    "retrieve": lambda c: c.retrieve("task", embedding=[0.1, 0.2]),
    "reward": lambda c: c.reward("r_1", 1, used_memory_ids=["m_1"], next_retrieval_id="r_2"),
    "remember": lambda c: c.remember("task", "did", "success", embedding=[0.1, 0.2], retrieval_id="r_1"),
    "listMemories": lambda c: c.list(text="t", outcome=["success", "failure"], min_q=0.0, max_q=1.0, min_visits=0, max_visits=9,
                                     created_from="2025-01-01T00:00:00Z", created_to="2025-01-02T00:00:00Z",
                                     updated_from="2025-01-01T00:00:00Z", updated_to="2025-01-02T00:00:00Z",
                                     sort="q", order="desc", limit=10, after="cursor"),
    "getMemory": lambda c: c.get("m_1"),
    "editMemory": lambda c: c.edit("m_1", "did better"),
    "forgetMemory": lambda c: c.forget("m_1"),
    "endEpisode": lambda c: c.end_episode("r_1", 1, "task", "did", "success", used_memory_ids=["m_1"], next_retrieval_id="r_2",
                                          embedding=[0.1, 0.2]),
    "stats": lambda c: c.stats(),
    "getConfig": lambda c: c.config(),
    "putConfig": lambda c: c.configure("memrl", {"k1": 10}),
    "overview": lambda c: c.overview(),
    "events": lambda c: c.events(after=3, limit=50),
    "memoryHistory": lambda c: c.history("m_1"),
    "memoryNeighbours": lambda c: c.neighbours("m_1", limit=5),
    "explain": lambda c: c.explain("task", embedding=[0.1, 0.2]),
    "report": lambda c: c.report(),
}


class Operations(unittest.TestCase):
    def test_everyDocumentedOperation_isCoveredByTheClient(self):
        missing = sorted(set(documented()) - set(OPERATIONS))
        self.assertEqual([], missing, "operationIds in openapi.json that the client does not call")

    def test_everyClientOperation_isDocumented_withItsMethodAndPath(self):
        doc = documented()
        for op_id, op in OPERATIONS.items():
            with self.subTest(operation=op_id):
                self.assertIn(op_id, set(doc), "the client calls %s %s as %s; openapi.json does not document it" % (op.method, op.path, op_id))
                self.assertEqual((doc[op_id]["method"], doc[op_id]["path"]), (op.method, op.path))

    def test_everyOperation_hasAConformanceCall(self):
        self.assertEqual(sorted(OPERATIONS), sorted(CALLS))

    def test_theErrorBody_isReadWithTheDocumentedNames(self):
        error = resolve(DOC["components"]["schemas"]["Error"])["properties"]["error"]
        self.assertEqual(sorted(error["properties"]), sorted(ERROR_FIELDS))
        self.assertEqual(sorted(error["required"]), sorted(ERROR_FIELDS))


class Answers(unittest.TestCase):
    def test_everyAnswerTheClientReads_hasTheDocumentedPropertyNames(self):
        doc = documented()
        for op_id, op in OPERATIONS.items():
            with self.subTest(operation=op_id):
                self.assertIn(op_id, set(doc), "%s is not documented" % op_id)
                status, schema = success(doc[op_id]["op"])
                if op.answer is None:
                    self.assertTrue(schema is None or not schema.get("properties"), "%s answers documented fields the client ignores" % op_id)
                else:
                    self.assertIsNotNone(schema, "%s: the client reads a JSON answer, none is documented" % op_id)
                    compare(self, schema, op.answer, op_id)


class Requests(unittest.TestCase):
    def setUp(self):
        self.stub = Stub().__enter__()
        self.addCleanup(self.stub.__exit__)
        self.c = MemLoopClient(self.stub.url, api_key="k", namespace="team-a", retries=0)

    def run_documented(self, op_id: str):
        """Calls ``op_id`` with every argument; the stub answers with a full documented answer."""
        doc = documented()[op_id]
        status, schema = success(doc["op"])
        if status == 204:
            self.stub.script(Reply(204))
        elif op_id == "metrics":
            self.stub.script(Reply(200, b"memloop_up 1\n", content_type="text/plain"))
        else:
            self.stub.script(Reply(status, sample(schema) if schema else {}))
        self.stub.seen.clear()
        result = CALLS[op_id](self.c)
        self.assertEqual(1, len(self.stub.seen))
        return doc, self.stub.seen[0], result

    def test_everyRequest_sendsExactlyTheDocumentedNames_andReadsTheFullAnswer(self):
        doc_ops = documented()
        for op_id in OPERATIONS:
            with self.subTest(operation=op_id):
                self.assertIn(op_id, set(doc_ops), "%s is not documented" % op_id)
                doc, seen, _ = self.run_documented(op_id)
                self.assertEqual(doc["method"], seen.method)
                body_schema = doc["op"].get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
                if body_schema is None:
                    self.assertEqual(b"", seen.body, "%s sends a body the document does not describe" % op_id)
                else:
                    props = resolve(body_schema).get("properties", {})
                    self.assertEqual(sorted(props), sorted(seen.json()), "%s: documented request properties vs. sent" % op_id)
                documented_query: Set[str] = {p["name"] for p in doc["op"].get("parameters", []) if p["in"] == "query"}
                self.assertEqual(sorted(documented_query), sorted(name for name, _ in seen.query),
                                 "%s: documented query parameters vs. sent" % op_id)

    def test_listMemories_sendsOnlyDocumentedEnumValues(self):
        doc, seen, _ = self.run_documented("listMemories")
        params = {p["name"]: p["schema"] for p in doc["op"]["parameters"]}
        query = dict(seen.query)
        for name in ("sort", "order"):
            with self.subTest(parameter=name):
                self.assertIn(name, set(params))
                self.assertIn(query[name], params[name].get("enum", []))

    def test_aFullDocumentedAnswer_isReadIntoEveryField(self):
        _, _, memory = self.run_documented("getMemory")
        self.assertIsInstance(memory, memloop.Memory)
        self.assertEqual(["text"], memory.parts)
        _, _, stats = self.run_documented("stats")
        self.assertEqual(memloop.EmbeddingModel("text", 1), stats.model)
        _, _, page = self.run_documented("listMemories")
        self.assertEqual(1, page.total)


if __name__ == "__main__":
    unittest.main()
