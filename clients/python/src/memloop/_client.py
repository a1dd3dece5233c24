"""MemLoopClient: every operation of the MemLoop HTTP API (``memloop serve``), standard library only."""

import http.client
import json
import logging
import os
import random
import time
import urllib.parse
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Dict, FrozenSet, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union

from . import _errors
from ._errors import ERROR_FIELDS, MemLoopError, UnexpectedResponse, error_for
from ._models import (
    Config,
    DecisionReport,
    EpisodeEnd,
    Events,
    Explanation,
    Memory,
    MemoryHistory,
    MemoryPage,
    NamespaceList,
    Neighbours,
    Overview,
    Order,
    Outcome,
    Retrieval,
    RewardResult,
    Sort,
    Stats,
    Status,
    decode,
    format_instant,
)

__version__ = "0.1.0"

LOG = logging.getLogger("memloop")
T = TypeVar("T")

NS = "/v1/namespaces/{ns}"


@dataclass(frozen=True)
class Operation:
    """One route of the API: its OpenAPI ``operationId``, method, path template and the class of its answer."""

    operation_id: str
    method: str
    path: str
    answer: Optional[type]


# Every operation this client calls, by OpenAPI operationId; the methods below look their route up here, and the
# conformance test checks this table against openapi.json (same operationIds, methods and paths).
OPERATIONS: Dict[str, Operation] = {o.operation_id: o for o in (
    Operation("health", "GET", "/v1/health", Status),
    Operation("ready", "GET", "/v1/ready", Status),
    Operation("openapi", "GET", "/v1/openapi.json", None),
    Operation("metrics", "GET", "/metrics", None),
    Operation("listNamespaces", "GET", "/v1/namespaces", NamespaceList),
    Operation("retrieve", "POST", NS + "/retrieve", Retrieval),
    Operation("reward", "POST", NS + "/rewards", RewardResult),
    Operation("remember", "POST", NS + "/memories", Memory),
    Operation("listMemories", "GET", NS + "/memories", MemoryPage),
    Operation("getMemory", "GET", NS + "/memories/{id}", Memory),
    Operation("editMemory", "PATCH", NS + "/memories/{id}", Memory),
    Operation("forgetMemory", "DELETE", NS + "/memories/{id}", None),
    Operation("endEpisode", "POST", NS + "/episodes", EpisodeEnd),
    Operation("stats", "GET", NS + "/stats", Stats),
    Operation("getConfig", "GET", NS + "/config", Config),
    Operation("putConfig", "PUT", NS + "/config", Config),
    Operation("overview", "GET", NS + "/overview", Overview),
    Operation("events", "GET", NS + "/events", Events),
    Operation("memoryHistory", "GET", NS + "/memories/{id}/history", MemoryHistory),
    Operation("memoryNeighbours", "GET", NS + "/memories/{id}/neighbours", Neighbours),
    Operation("explain", "POST", NS + "/explain", Explanation),
    Operation("report", "GET", NS + "/report", DecisionReport),
)}

# Methods whose repetition changes nothing more than doing them once (RFC 9110, 9.2.2): retried after a failure
# that may have reached the server. POST and PATCH are retried only when the request surely was not sent.
IDEMPOTENT: FrozenSet[str] = frozenset({"GET", "PUT", "DELETE"})
# Answers that say "try again later" (bad gateway, unavailable, gateway timeout): retried for idempotent calls.
RETRY_STATUSES: FrozenSet[int] = frozenset({502, 503, 504})


@dataclass(frozen=True)
class _Answer:
    status: int
    content_type: str
    body: bytes
    maybe_repeated: bool  # an earlier attempt may have reached the server


class MemLoopClient:
    """A client of one MemLoop server (``memloop serve``).

    Args:
        base_url: the server, e.g. ``http://127.0.0.1:7070`` (a path prefix, for a reverse proxy, is kept).
        api_key: a key made with ``memloop keys add``; None reads the environment variable ``MEMLOOP_API_KEY``
            (none at all: requests carry no key, for a server started with ``--open-namespace``).
        namespace: the namespace of every call that is not given one (``namespace=`` on each call wins).
        timeout: seconds to wait for the connection and for each read of one attempt.
        retries: further attempts after a failure, only where repeating is safe: idempotent calls (GET, PUT,
            DELETE) after a connection failure or a 502/503/504, and any call whose connection could not even
            be made (so the request surely was not sent). POST and PATCH are never repeated otherwise.
        backoff: seconds before the first retry; doubled for each next one, at most ``max_backoff``, with jitter.

    The key is kept out of ``repr`` and logs. An instance holds no connection (one per request) and can be
    shared by threads.
    """

    def __init__(self, base_url: str, api_key: Optional[str] = None, namespace: Optional[str] = None,
                 timeout: float = 10.0, retries: int = 2, backoff: float = 0.2, max_backoff: float = 2.0) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError("base_url: must be http://HOST[:PORT] or https://HOST[:PORT], got %r" % base_url)
        if parsed.query or parsed.fragment:
            raise ValueError("base_url: must have no query or fragment, got %r" % base_url)
        if timeout <= 0:
            raise ValueError("timeout: must be > 0 seconds, got %r" % timeout)
        if retries < 0 or retries > 10:
            raise ValueError("retries: must be in [0, 10], got %r" % retries)
        if backoff < 0 or max_backoff < backoff:
            raise ValueError("backoff: must be >= 0 and <= max_backoff, got backoff=%r max_backoff=%r" % (backoff, max_backoff))
        key = api_key if api_key is not None else (os.environ.get("MEMLOOP_API_KEY") or None)
        if key is not None and (key == "" or any(c in key for c in "\r\n\0 ")):
            raise ValueError("api_key: must be a non-empty key without spaces or line breaks (as printed by memloop keys add)")
        self.base_url = urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, parsed.path.rstrip("/"), "", ""))
        self.namespace = namespace
        self.timeout = float(timeout)
        self.retries = retries
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self._https = parsed.scheme == "https"
        self._host = parsed.hostname
        self._port = parsed.port
        self._prefix = parsed.path.rstrip("/")
        self._key = key
        self._sleep: Callable[[float], None] = time.sleep  # tests replace it
        self._jitter = random.Random()

    def __repr__(self) -> str:
        return "MemLoopClient(base_url=%r, namespace=%r, api_key=%s, timeout=%r, retries=%r)" % (
            self.base_url, self.namespace, "'***'" if self._key else None, self.timeout, self.retries)

    # --- the learning loop ------------------------------------------------------------------------------------

    def retrieve(self, intent: Optional[str] = None, *, embedding: Optional[Sequence[float]] = None,
                 namespace: Optional[str] = None) -> Retrieval:
        """Experiences for the task ``intent`` (and/or its ``embedding``): show ``selected`` to the agent."""
        body: Dict[str, Any] = {}
        _put(body, "intent", intent)
        _put(body, "embedding", None if embedding is None else [_number(x, "embedding") for x in embedding])
        return self._call("retrieve", Retrieval, ns=self._ns(namespace), body=body)

    def reward(self, retrieval_id: str, reward: float, *, used_memory_ids: Optional[Iterable[str]] = None,
               next_retrieval_id: Optional[str] = None, namespace: Optional[str] = None) -> RewardResult:
        """Rewards a retrieval with the task's outcome (default range -1 failure .. 1 success), once.

        ``used_memory_ids``: which selected memories the agent actually followed. ``next_retrieval_id``: for a
        step of a multi-step episode, the next step's retrieval (a Bellman/TD target).
        """
        body: Dict[str, Any] = {"retrievalId": retrieval_id, "reward": _number(reward, "reward")}
        _put(body, "usedMemoryIds", None if used_memory_ids is None else list(used_memory_ids))
        _put(body, "nextRetrievalId", next_retrieval_id)
        return self._call("reward", RewardResult, ns=self._ns(namespace), body=body)

    def remember(self, intent: Optional[str], experience: str, outcome: Outcome, *,
                 embedding: Optional[Sequence[float]] = None, retrieval_id: Optional[str] = None,
                 namespace: Optional[str] = None) -> Memory:
        """Stores what the agent did under the task ``intent`` and how it ended.

        ``retrieval_id``: the episode's retrieval, so the memory joins an intent it recalled and the event log
        pairs them. An exact duplicate (default preset) returns the existing memory.
        """
        body: Dict[str, Any] = {}
        _put(body, "intent", intent)
        _put(body, "embedding", None if embedding is None else [_number(x, "embedding") for x in embedding])
        body["experience"] = experience
        body["outcome"] = outcome
        _put(body, "retrievalId", retrieval_id)
        return self._call("remember", Memory, ns=self._ns(namespace), body=body)

    def end_episode(self, retrieval_id: str, reward: float, intent: Optional[str], experience: str, outcome: Outcome, *,
                    used_memory_ids: Optional[Iterable[str]] = None, next_retrieval_id: Optional[str] = None,
                    embedding: Optional[Sequence[float]] = None, namespace: Optional[str] = None) -> EpisodeEnd:
        """:meth:`reward` and :meth:`remember` (linked to the retrieval) as one write: both happen or neither."""
        body: Dict[str, Any] = {"retrievalId": retrieval_id, "reward": _number(reward, "reward")}
        _put(body, "usedMemoryIds", None if used_memory_ids is None else list(used_memory_ids))
        _put(body, "nextRetrievalId", next_retrieval_id)
        _put(body, "intent", intent)
        _put(body, "embedding", None if embedding is None else [_number(x, "embedding") for x in embedding])
        body["experience"] = experience
        body["outcome"] = outcome
        return self._call("endEpisode", EpisodeEnd, ns=self._ns(namespace), body=body)

    # --- memories ---------------------------------------------------------------------------------------------

    def get(self, memory_id: str, *, namespace: Optional[str] = None) -> Memory:
        """One memory with its learned utility; :class:`NotFound` if there is none with this id."""
        return self._call("getMemory", Memory, ns=self._ns(namespace), memory_id=memory_id)

    def edit(self, memory_id: str, experience: str, *, namespace: Optional[str] = None) -> Memory:
        """Replaces a memory's experience text in place (its id, intent, outcome and utility stay)."""
        return self._call("editMemory", Memory, ns=self._ns(namespace), memory_id=memory_id, body={"experience": experience})

    def forget(self, memory_id: str, *, namespace: Optional[str] = None) -> None:
        """Deletes a memory. If a retry follows an attempt whose answer was lost, a 404 then means it is gone."""
        self._send(OPERATIONS["forgetMemory"], ns=self._ns(namespace), memory_id=memory_id, gone_ok_when_repeated=True)

    def list(self, *, text: Optional[str] = None, outcome: Union[Outcome, Iterable[Outcome], None] = None,
             min_q: Optional[float] = None, max_q: Optional[float] = None,
             min_visits: Optional[int] = None, max_visits: Optional[int] = None,
             created_from: Union[datetime, str, None] = None, created_to: Union[datetime, str, None] = None,
             updated_from: Union[datetime, str, None] = None, updated_to: Union[datetime, str, None] = None,
             sort: Optional[Sort] = None, order: Optional[Order] = None, limit: Optional[int] = None,
             after: Optional[str] = None, namespace: Optional[str] = None) -> MemoryPage:
        """One page of the memories matching every filter given.

        ``text``: every word must occur in the intent or the experience. ``outcome``: one or several.
        Q and visit bounds are inclusive; ``*_from`` inclusive, ``*_to`` exclusive (aware datetimes or ISO-8601
        text). ``sort``: created (default), updated, q or visits; ``order``: asc (default) or desc.
        ``limit``: 1-1000 (server default 100). ``after``: the previous page's ``next``.
        """
        query = _list_query(text, outcome, min_q, max_q, min_visits, max_visits, created_from, created_to,
                            updated_from, updated_to, sort, order, limit, after)
        return self._call("listMemories", MemoryPage, ns=self._ns(namespace), query=query)

    def iter_memories(self, *, text: Optional[str] = None, outcome: Union[Outcome, Iterable[Outcome], None] = None,
                      min_q: Optional[float] = None, max_q: Optional[float] = None,
                      min_visits: Optional[int] = None, max_visits: Optional[int] = None,
                      created_from: Union[datetime, str, None] = None, created_to: Union[datetime, str, None] = None,
                      updated_from: Union[datetime, str, None] = None, updated_to: Union[datetime, str, None] = None,
                      sort: Optional[Sort] = None, order: Optional[Order] = None, page_size: int = 100,
                      namespace: Optional[str] = None) -> Iterator[Memory]:
        """Every memory matching the filters of :meth:`list`, page after page (``page_size`` a request)."""
        after: Optional[str] = None
        ns = self._ns(namespace)
        while True:
            page = self.list(text=text, outcome=outcome, min_q=min_q, max_q=max_q, min_visits=min_visits,
                             max_visits=max_visits, created_from=created_from, created_to=created_to,
                             updated_from=updated_from, updated_to=updated_to, sort=sort, order=order,
                             limit=page_size, after=after, namespace=ns)
            for m in page.memories:
                yield m
            if page.next is None:
                return
            if page.next == after:
                raise UnexpectedResponse("the server answered the same page cursor twice: %r" % after, code="unexpected_response")
            after = page.next

    # --- looking inside: what the memory learned and why it chooses (the memory inspector's routes) -------------

    def explain(self, intent: Optional[str] = None, *, embedding: Optional[Sequence[float]] = None,
                namespace: Optional[str] = None) -> Explanation:
        """Why a retrieval for ``intent`` would show what it shows: every recalled candidate with its similarity,
        Q, score, eligibility, tier and inclusion probability, the selection's steps and the memories shown
        (exploration not drawn). Read-only: no retrieval is saved and nothing is learned."""
        body: Dict[str, Any] = {}
        _put(body, "intent", intent)
        _put(body, "embedding", None if embedding is None else [_number(x, "embedding") for x in embedding])
        return self._call("explain", Explanation, ns=self._ns(namespace), body=body)

    def history(self, memory_id: str, *, namespace: Optional[str] = None) -> MemoryHistory:
        """A memory's Q over time and the retrievals that had it in their pool, with their rewards, since the
        server started (``complete`` False when the server's bounds dropped older entries)."""
        return self._call("memoryHistory", MemoryHistory, ns=self._ns(namespace), memory_id=memory_id)

    def neighbours(self, memory_id: str, *, limit: Optional[int] = None, namespace: Optional[str] = None) -> Neighbours:
        """Memories of the intents nearest to this memory's intent (``limit`` 1-50, server default 10)."""
        query: List[Tuple[str, str]] = []
        if limit is not None:
            query.append(("limit", str(_integer_arg(limit, "limit"))))
        return self._call("memoryNeighbours", Neighbours, ns=self._ns(namespace), memory_id=memory_id, query=query)

    def overview(self, *, namespace: Optional[str] = None) -> Overview:
        """A namespace's stats, configuration, what per-task learning learned, and its activity by minute."""
        return self._call("overview", Overview, ns=self._ns(namespace))

    def events(self, *, after: Optional[int] = None, limit: Optional[int] = None, namespace: Optional[str] = None) -> Events:
        """Recent events since the server started, oldest first; poll with ``after=`` the previous answer's ``next``.
        ``limit``: 1-500 (server default 100)."""
        query: List[Tuple[str, str]] = []
        if after is not None:
            query.append(("after", str(_integer_arg(after, "after"))))
        if limit is not None:
            query.append(("limit", str(_integer_arg(limit, "limit"))))
        return self._call("events", Events, ns=self._ns(namespace), query=query)

    def report(self, *, namespace: Optional[str] = None) -> DecisionReport:
        """The decision report: off-policy evaluation of other configurations on this namespace's logged events
        (``available`` False, with ``reason``, when the server keeps no event log)."""
        return self._call("report", DecisionReport, ns=self._ns(namespace))

    # --- namespaces and configuration -------------------------------------------------------------------------

    def stats(self, *, namespace: Optional[str] = None) -> Stats:
        """Counts, the utility distribution and the embedding model of a namespace."""
        return self._call("stats", Stats, ns=self._ns(namespace))

    def config(self, *, namespace: Optional[str] = None) -> Config:
        """The namespace's configuration (every knob as text)."""
        return self._call("getConfig", Config, ns=self._ns(namespace))

    def configure(self, preset: Optional[str] = None, knobs: Optional[Mapping[str, Union[str, float, int, bool]]] = None, *,
                  namespace: Optional[str] = None) -> Config:
        """Records a new configuration: ``preset`` (default, memrl, similarity) with ``knobs`` changed on top."""
        body: Dict[str, Any] = {}
        _put(body, "preset", preset)
        _put(body, "knobs", None if knobs is None else dict(knobs))
        return self._call("putConfig", Config, ns=self._ns(namespace), body=body)

    def namespaces(self) -> List[str]:
        """The namespaces this key may use that hold data."""
        return self._call("listNamespaces", NamespaceList).namespaces

    # --- operations -------------------------------------------------------------------------------------------

    def health(self) -> str:
        """``"ok"`` while the server runs (no key needed)."""
        return self._call("health", Status).status

    def ready(self) -> bool:
        """True when the server can serve (its store is usable), False while it starts failing or stops (503)."""
        answer = self._send(OPERATIONS["ready"], retry_statuses=frozenset(), also_ok=frozenset({503}))
        if answer.status == 503:
            return False
        return self._read(Status, answer).status == "ready"

    def openapi(self) -> Dict[str, Any]:
        """The OpenAPI document the server describes itself with."""
        doc = _json(self._send(OPERATIONS["openapi"]))
        if not isinstance(doc, dict):
            raise UnexpectedResponse("the OpenAPI document is not a JSON object", code="unexpected_response")
        return doc

    def metrics(self) -> str:
        """The Prometheus metrics text (no key needed)."""
        return self._send(OPERATIONS["metrics"]).body.decode("utf-8")

    # --- transport --------------------------------------------------------------------------------------------

    def _ns(self, namespace: Optional[str]) -> str:
        ns = namespace if namespace is not None else self.namespace
        if ns is None:
            raise ValueError("namespace: none given; pass namespace= to this call or to MemLoopClient(...)")
        return ns

    def _call(self, operation_id: str, answer: Type[T], *, ns: Optional[str] = None, memory_id: Optional[str] = None,
              query: Optional[List[Tuple[str, str]]] = None, body: Optional[Dict[str, Any]] = None) -> T:
        return self._read(answer, self._send(OPERATIONS[operation_id], ns=ns, memory_id=memory_id, query=query, body=body))

    @staticmethod
    def _read(cls: Type[T], answer: _Answer) -> T:
        return decode(cls, _json(answer))

    def _send(self, op: Operation, *, ns: Optional[str] = None, memory_id: Optional[str] = None,
              query: Optional[List[Tuple[str, str]]] = None, body: Optional[Dict[str, Any]] = None,
              retry_statuses: FrozenSet[int] = RETRY_STATUSES, also_ok: FrozenSet[int] = frozenset(),
              gone_ok_when_repeated: bool = False) -> _Answer:
        path = op.path
        if ns is not None:
            path = path.replace("{ns}", urllib.parse.quote(ns, safe=""))
        if memory_id is not None:
            path = path.replace("{id}", urllib.parse.quote(memory_id, safe=""))
        target = self._prefix + path + ("?" + urllib.parse.urlencode(query) if query else "")
        headers = {"Accept": "application/json", "User-Agent": "memloop-python/" + __version__}
        if self._key is not None:
            headers["Authorization"] = "Bearer " + self._key
        payload = None
        if body is not None:
            try:
                payload = json.dumps(body, allow_nan=False, ensure_ascii=False).encode("utf-8")
            except ValueError:
                raise ValueError("%s: the request holds NaN or an infinite number, which JSON cannot carry" % op.operation_id) from None
            headers["Content-Type"] = "application/json"
        idempotent = op.method in IDEMPOTENT
        attempt = 0
        maybe_repeated = False
        while True:
            try:
                status, content_type, data = self._attempt(op.method, target, payload, headers)
            except _errors.ConnectionError as e:
                if attempt < self.retries and (idempotent or not e.sent):
                    LOG.debug("memloop %s %s: %s; retrying", op.method, path, e.message)
                    maybe_repeated = maybe_repeated or e.sent
                    self._sleep(self._delay(attempt))
                    attempt += 1
                    continue
                raise
            LOG.debug("memloop %s %s -> %d (attempt %d)", op.method, path, status, attempt + 1)
            if status in retry_statuses and idempotent and attempt < self.retries:
                maybe_repeated = True
                self._sleep(self._delay(attempt))
                attempt += 1
                continue
            answer = _Answer(status, content_type, data, maybe_repeated)
            if status in also_ok or (status == 404 and gone_ok_when_repeated and maybe_repeated):
                return answer  # (404: an earlier attempt reached the server and deleted it: gone, as asked)
            if status >= 400:
                raise _error(answer)
            if not 200 <= status < 300:
                raise UnexpectedResponse("HTTP %d for %s %s" % (status, op.method, path), status=status, code="unexpected_response")
            return answer

    def _delay(self, attempt: int) -> float:
        # exponential backoff with "equal jitter": half fixed, half random, so clients that failed together
        # do not all come back at the same instant
        delay = min(self.max_backoff, self.backoff * (1 << attempt))
        return delay / 2 + self._jitter.uniform(0, delay / 2)

    def _attempt(self, method: str, target: str, payload: Optional[bytes], headers: Dict[str, str]) -> Tuple[int, str, bytes]:
        """One request on a new connection. ConnectionError(sent=False) when the connection could not be made."""
        cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        conn = cls(self._host, self._port, timeout=self.timeout)
        try:
            try:
                conn.connect()
            except OSError as e:  # refused, unreachable, DNS, connect timeout, TLS handshake: nothing was sent
                raise _errors.ConnectionError("cannot connect to %s: %s" % (self.base_url, _reason(e)), sent=False) from None
            try:
                conn.request(method, target, body=payload, headers=headers)
                response = conn.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException) as e:
                raise _errors.ConnectionError("%s %s: no answer from %s: %s" % (method, target.split("?")[0], self.base_url, _reason(e)),
                                              sent=True) from None
            return response.status, response.getheader("Content-Type", ""), data
        finally:
            conn.close()


def _reason(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    return text if len(text) <= 200 else text[:200] + "..."


def _json(answer: _Answer) -> Any:
    try:
        return json.loads(answer.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise UnexpectedResponse("HTTP %d: the answer is not JSON (%s): %r" % (answer.status, answer.content_type or "no content type",
                                                                           answer.body[:200]), status=answer.status,
                                 code="unexpected_response") from None


def _error(answer: _Answer) -> MemLoopError:
    """The error for a 4xx/5xx answer, from the server's ``{"error": {"code", "field", "message"}}``."""
    try:
        doc = json.loads(answer.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        doc = None
    err = doc.get("error") if isinstance(doc, dict) else None
    if isinstance(err, dict) and all(isinstance(err.get(f), str) for f in ERROR_FIELDS):
        return error_for(answer.status, err["code"], err["field"], err["message"])
    text = answer.body[:200].decode("utf-8", "replace").strip()
    return error_for(answer.status, "http_%d" % answer.status, "", text or "no explanation in the answer")


def _put(body: Dict[str, Any], name: str, value: Any) -> None:
    if value is not None:
        body[name] = value


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("%s: must be a number, got %s" % (name, type(value).__name__))
    return value


def _integer_arg(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s: must be an integer, got %s" % (name, type(value).__name__))
    return value


def _list_query(text: Optional[str], outcome: Union[str, Iterable[str], None], min_q: Optional[float], max_q: Optional[float],
                min_visits: Optional[int], max_visits: Optional[int], created_from: Union[datetime, str, None],
                created_to: Union[datetime, str, None], updated_from: Union[datetime, str, None],
                updated_to: Union[datetime, str, None], sort: Optional[str], order: Optional[str], limit: Optional[int],
                after: Optional[str]) -> List[Tuple[str, str]]:
    q: List[Tuple[str, str]] = []

    def add(name: str, value: Any) -> None:
        if value is None:
            return
        if isinstance(value, datetime):
            value = format_instant(value, name)
        elif isinstance(value, bool):
            raise TypeError("%s: must not be a boolean" % name)
        elif isinstance(value, float):
            value = repr(value)
        q.append((name, str(value)))

    add("limit", limit)
    add("after", after)
    add("text", text)
    add("outcome", outcome if outcome is None or isinstance(outcome, str) else ",".join(outcome))
    add("minQ", min_q)
    add("maxQ", max_q)
    add("minVisits", min_visits)
    add("maxVisits", max_visits)
    add("createdFrom", created_from)
    add("createdTo", created_to)
    add("updatedFrom", updated_from)
    add("updatedTo", updated_to)
    add("sort", sort)
    add("order", order)
    return q
