"""The values the API answers with, as frozen dataclasses.

Each field names its JSON property in its metadata (``json``), and how to read it (``read``); one decoder
reads every class from that table, and the OpenAPI conformance test compares the same table with the
published schemas, so a property renamed on one side and not the other fails a test instead of a user.
"""

import re
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Type, TypeVar, cast

from ._errors import UnexpectedResponse


Outcome = Literal["success", "failure", "unknown"]
"""How a task ended: what a memory records."""

Sort = Literal["created", "updated", "q", "visits"]
"""The order of :meth:`MemLoopClient.list`: creation (store order), last update, utility or visits."""

Order = Literal["asc", "desc"]

T = TypeVar("T")

_INSTANT = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$")


def parse_instant(text: str) -> datetime:
    """An ISO-8601 instant as the server writes it (Java ``Instant``: ``2025-01-31T12:00:00.123456789Z``), in UTC.

    Python before 3.11 reads neither ``Z`` nor nine fraction digits, so this does it: the fraction is cut to
    microseconds, the precision of ``datetime``.
    """
    m = _INSTANT.match(text)
    if m is None:
        raise ValueError("not an ISO-8601 instant: %r" % text)
    base = datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S")
    micros = int((m.group(2) or "0").ljust(6, "0")[:6])
    zone = m.group(3)
    offset = timedelta(0)
    if zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        offset = sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    return (base.replace(microsecond=micros) - offset).replace(tzinfo=timezone.utc)


def format_instant(value: datetime, name: str) -> str:
    """``value`` as the ISO-8601 UTC instant the server reads; a naive datetime is refused (its zone is unknown)."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("%s: a datetime with a time zone is required (e.g. datetime.now(timezone.utc)), got a naive one" % name)
    utc = value.astimezone(timezone.utc)
    text = utc.strftime("%Y-%m-%dT%H:%M:%S")
    if utc.microsecond:
        text += ".%06d" % utc.microsecond
    return text + "Z"


# --- readers: each checks the JSON type, so a server speaking something else is an UnexpectedResponse ---

def _text(v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError("expected a string, got %s" % type(v).__name__)
    return v


def _number(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError("expected a number, got %s" % type(v).__name__)
    return float(v)


def _integer(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("expected an integer, got %s" % type(v).__name__)
    return v


def _boolean(v: Any) -> bool:
    if not isinstance(v, bool):
        raise TypeError("expected a boolean, got %s" % type(v).__name__)
    return v


def _time(v: Any) -> datetime:
    return parse_instant(_text(v))


def _texts(v: Any) -> List[str]:
    if not isinstance(v, list):
        raise TypeError("expected an array, got %s" % type(v).__name__)
    return [_text(x) for x in v]


def _text_map(v: Any) -> Dict[str, str]:
    if not isinstance(v, dict):
        raise TypeError("expected an object, got %s" % type(v).__name__)
    return {_text(k): _text(x) for k, x in v.items()}


def _optional_text(v: Any) -> Optional[str]:
    return None if v is None else _text(v)


def _wire(json: str, read: Callable[[Any], Any], *, model: Optional[type] = None, many: bool = False,
          absent: Optional[Callable[[Mapping[str, Any]], Any]] = None) -> Any:
    """A dataclass field read from JSON property ``json``.

    ``model``/``many``: a nested object (or array of them) of that class. ``absent``: the property is optional;
    the function gives the value when a server leaves it out (from the other properties of the object).
    """
    meta: Dict[str, Any] = {"json": json, "read": read, "model": model, "many": many, "absent": absent}
    return field(metadata=meta)


def _nested(cls: Type[T]) -> Callable[[Any], T]:
    return lambda v: decode(cls, v)


def _optional_nested(cls: Type[T]) -> Callable[[Any], Optional[T]]:
    return lambda v: None if v is None else decode(cls, v)


def _nested_list(cls: Type[T]) -> Callable[[Any], List[T]]:
    def read(v: Any) -> List[T]:
        if not isinstance(v, list):
            raise TypeError("expected an array, got %s" % type(v).__name__)
        return [decode(cls, x) for x in v]
    return read


def decode(cls: Type[T], obj: Any) -> T:
    """Reads ``cls`` (one of the dataclasses here) from a decoded JSON object."""
    if not isinstance(obj, dict):
        raise UnexpectedResponse("expected a %s object, got %s" % (cls.__name__, type(obj).__name__), code="unexpected_response")
    values: Dict[str, Any] = {}
    for f in fields(cast(Any, cls)):
        meta = f.metadata
        name = meta["json"]
        if name not in obj:
            if meta["absent"] is None:
                raise UnexpectedResponse("%s: the answer has no %r" % (cls.__name__, name), code="unexpected_response")
            values[f.name] = meta["absent"](obj)
            continue
        try:
            values[f.name] = meta["read"](obj[name])
        except (TypeError, ValueError) as e:
            raise UnexpectedResponse("%s.%s: %s" % (cls.__name__, name, e), code="unexpected_response") from None
    return cls(**values)


def wire_fields(cls: type) -> Dict[str, Dict[str, Any]]:
    """JSON property name -> its metadata, for every field of ``cls`` (used by the conformance test)."""
    return {f.metadata["json"]: dict(f.metadata) for f in fields(cls)}


def _parts_of_old_server(obj: Mapping[str, Any]) -> List[str]:
    # A server older than `parts` sends none: the experience is then the only part it can name.
    return [_text(obj.get("experience", ""))]


@dataclass(frozen=True)
class Memory:
    """A remembered experience with its learned utility ``q``.

    ``parts`` are the note's attempts, newest first: one element for a plain memory; several when failures
    of the same intent were merged into one note (its ``experience`` then joins them).
    """

    id: str = _wire("id", _text)
    namespace: str = _wire("namespace", _text)
    intent_id: str = _wire("intentId", _text)
    intent: str = _wire("intent", _text)
    experience: str = _wire("experience", _text)
    parts: List[str] = _wire("parts", _texts, absent=_parts_of_old_server)
    outcome: str = _wire("outcome", _text)
    q: float = _wire("q", _number)
    visits: int = _wire("visits", _integer)
    created_at: datetime = _wire("createdAt", _time)
    updated_at: datetime = _wire("updatedAt", _time)


@dataclass(frozen=True)
class Candidate:
    """One memory Phase A recalled, with its Phase B score and the probability that it was selected."""

    id: str = _wire("id", _text)
    similarity: float = _wire("similarity", _number)
    q: float = _wire("q", _number)
    score: float = _wire("score", _number)
    selected: bool = _wire("selected", _boolean)
    probability: float = _wire("probability", _number)


@dataclass(frozen=True)
class Retrieval:
    """The answer to :meth:`MemLoopClient.retrieve`: show ``selected`` to the agent, reward ``retrieval_id``."""

    retrieval_id: str = _wire("retrievalId", _text)
    namespace: str = _wire("namespace", _text)
    candidates: List[Candidate] = _wire("candidates", _nested_list(Candidate), model=Candidate, many=True)
    selected: List[Memory] = _wire("selected", _nested_list(Memory), model=Memory, many=True)


@dataclass(frozen=True)
class UtilityChange:
    """How one memory's utility moved with a reward."""

    id: str = _wire("id", _text)
    q_before: float = _wire("qBefore", _number)
    q_after: float = _wire("qAfter", _number)
    visits: int = _wire("visits", _integer)


UpdatedMemory = UtilityChange
"""Another name for :class:`UtilityChange`."""


@dataclass(frozen=True)
class RewardResult:
    """The answer to :meth:`MemLoopClient.reward`. ``target`` is set for a Bellman/TD reward (``next_retrieval_id``)."""

    retrieval_id: str = _wire("retrievalId", _text)
    reward: float = _wire("reward", _number)
    target: Optional[float] = _wire("target", _number, absent=lambda obj: None)
    updated: List[UtilityChange] = _wire("updated", _nested_list(UtilityChange), model=UtilityChange, many=True)


@dataclass(frozen=True)
class EpisodeEnd:
    """The answer to :meth:`MemLoopClient.end_episode`: the reward and the remembered memory, written at once."""

    reward: RewardResult = _wire("reward", _nested(RewardResult), model=RewardResult)
    memory: Memory = _wire("memory", _nested(Memory), model=Memory)


@dataclass(frozen=True)
class MemoryPage:
    """One page of :meth:`MemLoopClient.list`. Pass ``next`` as ``after`` for the next page (None: the last).

    ``total`` is the number of memories matching the filters over all pages (None from a server older than it).
    """

    namespace: str = _wire("namespace", _text)
    memories: List[Memory] = _wire("memories", _nested_list(Memory), model=Memory, many=True)
    next: Optional[str] = _wire("next", _optional_text)
    total: Optional[int] = _wire("total", _integer, absent=lambda obj: None)


@dataclass(frozen=True)
class EmbeddingModel:
    """The embedding model a store was made with."""

    id: str = _wire("id", _text)
    dimension: int = _wire("dimension", _integer)


@dataclass(frozen=True)
class Stats:
    """Counts and the utility distribution of a namespace.

    ``model`` is the embedding model the store records: None while it records none (a store only ever given
    embeddings by its callers), and from a server older than it.
    """

    namespace: str = _wire("namespace", _text)
    memories: int = _wire("memories", _integer)
    intents: int = _wire("intents", _integer)
    pending_retrievals: int = _wire("pendingRetrievals", _integer)
    successes: int = _wire("successes", _integer)
    failures: int = _wire("failures", _integer)
    mean_q: float = _wire("meanQ", _number)
    min_q: float = _wire("minQ", _number)
    max_q: float = _wire("maxQ", _number)
    total_visits: int = _wire("totalVisits", _integer)
    model: Optional[EmbeddingModel] = _wire("model", _optional_nested(EmbeddingModel), model=EmbeddingModel,
                                            absent=lambda obj: None)


@dataclass(frozen=True)
class Config:
    """A namespace's configuration: every knob as text. ``recorded`` is False until the namespace is used."""

    namespace: str = _wire("namespace", _text)
    recorded: bool = _wire("recorded", _boolean)
    knobs: Dict[str, str] = _wire("knobs", _text_map)


@dataclass(frozen=True)
class Status:
    """The answer of the health and readiness routes."""

    status: str = _wire("status", _text)


@dataclass(frozen=True)
class NamespaceList:
    """The answer of ``GET /v1/namespaces``."""

    namespaces: List[str] = _wire("namespaces", _texts)
