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


# --- the inspector's routes (memory inspector, GET .../overview, /events, /memories/{id}/history, ...) ---

def _optional_number(v: Any) -> Optional[float]:
    return None if v is None else _number(v)


def _optional_boolean(v: Any) -> Optional[bool]:
    return None if v is None else _boolean(v)


def _number_or_text(v: Any) -> Any:
    return v if isinstance(v, str) else _number(v)


def _object(v: Any) -> Dict[str, Any]:
    if not isinstance(v, dict):
        raise TypeError("expected an object, got %s" % type(v).__name__)
    return v


def _array(v: Any) -> List[Any]:
    if not isinstance(v, list):
        raise TypeError("expected an array, got %s" % type(v).__name__)
    return v


def _absent(obj: Mapping[str, Any]) -> None:
    return None


@dataclass(frozen=True)
class Exploration:
    """Whether exploring pays in a namespace: episodes that explored against those that could have and did not.

    Success rates are mean rewards scaled to [0, 1] (None before any such episode); ``probability`` is the chance
    that a task able to explore does now (None while per-task learning has not decided).
    """

    explored: int = _wire("explored", _integer)
    explored_success_rate: Optional[float] = _wire("exploredSuccessRate", _optional_number)
    not_explored: int = _wire("notExplored", _integer)
    not_explored_success_rate: Optional[float] = _wire("notExploredSuccessRate", _optional_number)
    probability: Optional[float] = _wire("probability", _optional_number)


@dataclass(frozen=True)
class NoteDepth:
    """Episodes shown long failure notes whole against shortened, and how each went."""

    whole: int = _wire("whole", _integer)
    whole_success_rate: Optional[float] = _wire("wholeSuccessRate", _optional_number)
    shortened: int = _wire("shortened", _integer)
    shortened_success_rate: Optional[float] = _wire("shortenedSuccessRate", _optional_number)


def _numbers(v: Any) -> List[float]:
    return [_number(x) for x in _array(v)]


@dataclass(frozen=True)
class SimilarityBlocks:
    """With vectors of several embedding models (``--embedder minilm+hashing``), how much the namespace trusts each
    model's similarity: ``weights`` in block order (empty when vectors are not split), learned from ``updates`` rewards.
    """

    weights: List[float] = _wire("weights", _numbers)
    updates: int = _wire("updates", _integer)


@dataclass(frozen=True)
class SimilarityDirections:
    """With a learned similarity (knob ``similarityDirections``), what it learned: ``pairs`` successful (query, used
    memory) pairs, the latest fit made at ``fitted_at`` of them; ``scales`` the factor (in (0, 1]) by which that fit
    scales each direction it discounts, most varying first (empty before the first fit), and ``variance_share`` the
    share of the pairs' variation those directions hold (None before the first fit).
    """

    pairs: int = _wire("pairs", _integer)
    fitted_at: int = _wire("fittedAt", _integer)
    scales: List[float] = _wire("scales", _numbers)
    variance_share: Optional[float] = _wire("varianceShare", _optional_number)


@dataclass(frozen=True)
class TextSimilarity:
    """With the texts' similarity mixed in for new tasks (knob ``textSimilarity``): the weights of the vectors'
    similarity and of the texts', in that order (empty when it is not), learned from ``updates`` rewards.
    """

    weights: List[float] = _wire("weights", _numbers)
    updates: int = _wire("updates", _integer)


@dataclass(frozen=True)
class Doubt:
    """Whether new tasks do better shown the successes whose latest use failed after the rest (knob ``doubt``):
    episodes drawn to show them last (``demoted``) and where similarity put them (``kept``), each with its success rate,
    and ``probability``, the chance that such an episode shows them last now (None before any).
    """

    demoted: int = _wire("demoted", _integer)
    demoted_success_rate: Optional[float] = _wire("demotedSuccessRate", _optional_number)
    kept: int = _wire("kept", _integer)
    kept_success_rate: Optional[float] = _wire("keptSuccessRate", _optional_number)
    probability: Optional[float] = _wire("probability", _optional_number)


@dataclass(frozen=True)
class DirectionsUse:
    """Whether new tasks do better ranked by the similarity the namespace learned or by the plain cosine (knob
    ``directionsUse``): episodes drawn to each (``learned``, ``cosine``) where the two would show different memories,
    each with its success rate, and ``probability``, the chance that such an episode is ranked by the learned
    similarity now (None before any).
    """

    learned: int = _wire("learned", _integer)
    learned_success_rate: Optional[float] = _wire("learnedSuccessRate", _optional_number)
    cosine: int = _wire("cosine", _integer)
    cosine_success_rate: Optional[float] = _wire("cosineSuccessRate", _optional_number)
    probability: Optional[float] = _wire("probability", _optional_number)


@dataclass(frozen=True)
class TextAlone:
    """Whether new tasks do better ranked by the texts' similarity alone or by the learned mix of the vectors' and the
    texts' (knob ``textAlone``): episodes drawn to each (``alone``, ``mixed``) where the two would show different
    memories, counted over about the latest 256 such draws (older ones weigh less, rounded), each with its success
    rate, and ``probability``, the chance that such an episode is ranked by the texts alone now (None before any).
    """

    alone: int = _wire("alone", _integer)
    alone_success_rate: Optional[float] = _wire("aloneSuccessRate", _optional_number)
    mixed: int = _wire("mixed", _integer)
    mixed_success_rate: Optional[float] = _wire("mixedSuccessRate", _optional_number)
    probability: Optional[float] = _wire("probability", _optional_number)


@dataclass(frozen=True)
class Learned:
    """What per-task learning learned in a namespace (all zero or None when it is off or has learned nothing).

    ``recurrence``: the share of rewarded retrievals made by a task rewarded before (None before any reward, and
    from servers older than it); ``similarity_blocks``, ``similarity_directions``, ``text_similarity``, ``doubt``,
    ``directions_use`` and ``text_alone``: None from servers older than them.
    """

    task_learning: bool = _wire("taskLearning", _boolean)
    exploration: Exploration = _wire("exploration", _nested(Exploration), model=Exploration)
    note_depth: NoteDepth = _wire("noteDepth", _nested(NoteDepth), model=NoteDepth)
    recurrence: Optional[float] = _wire("recurrence", _optional_number, absent=_absent)
    similarity_blocks: Optional[SimilarityBlocks] = _wire("similarityBlocks", _nested(SimilarityBlocks),
                                                          model=SimilarityBlocks, absent=_absent)
    similarity_directions: Optional[SimilarityDirections] = _wire(
        "similarityDirections", _nested(SimilarityDirections), model=SimilarityDirections, absent=_absent)
    text_similarity: Optional[TextSimilarity] = _wire(
        "textSimilarity", _nested(TextSimilarity), model=TextSimilarity, absent=_absent)
    doubt: Optional[Doubt] = _wire("doubt", _nested(Doubt), model=Doubt, absent=_absent)
    directions_use: Optional[DirectionsUse] = _wire("directionsUse", _nested(DirectionsUse), model=DirectionsUse,
                                                    absent=_absent)
    text_alone: Optional[TextAlone] = _wire("textAlone", _nested(TextAlone), model=TextAlone, absent=_absent)


@dataclass(frozen=True)
class ActivityBucket:
    """One minute of a namespace's activity (``start`` its first instant)."""

    start: datetime = _wire("start", _time)
    retrievals: int = _wire("retrievals", _integer)
    rewards: int = _wire("rewards", _integer)
    successes: int = _wire("successes", _integer)
    reward_sum: float = _wire("rewardSum", _number)
    remembered: int = _wire("remembered", _integer)
    edited: int = _wire("edited", _integer)
    forgotten: int = _wire("forgotten", _integer)


@dataclass(frozen=True)
class Activity:
    """The minutes with any activity in the last 24 hours, oldest first, since the server started (``since``)."""

    since: datetime = _wire("since", _time)
    bucket_seconds: int = _wire("bucketSeconds", _integer)
    buckets: List[ActivityBucket] = _wire("buckets", _nested_list(ActivityBucket), model=ActivityBucket, many=True)


@dataclass(frozen=True)
class Overview:
    """The answer of :meth:`MemLoopClient.overview`: a namespace's counts, configuration, learning and activity."""

    namespace: str = _wire("namespace", _text)
    stats: Stats = _wire("stats", _nested(Stats), model=Stats)
    config: Config = _wire("config", _nested(Config), model=Config)
    learned: Learned = _wire("learned", _nested(Learned), model=Learned)
    activity: Activity = _wire("activity", _nested(Activity), model=Activity)


@dataclass(frozen=True)
class ActivityEvent:
    """One event of :meth:`MemLoopClient.events`; which optional fields it has depends on ``type``.

    retrieved: ``retrieval_id``, ``memory_ids`` (selected, in the order shown), ``intent`` (first 200 characters);
    rewarded: ``retrieval_id``, ``memory_ids`` (updated), ``reward``, ``success``; remembered: ``memory_id`` (and
    ``retrieval_id`` when named); edited, forgotten: ``memory_id``.
    """

    seq: int = _wire("seq", _integer)
    at: datetime = _wire("at", _time)
    type: str = _wire("type", _text)
    retrieval_id: Optional[str] = _wire("retrievalId", _text, absent=_absent)
    memory_ids: Optional[List[str]] = _wire("memoryIds", _texts, absent=_absent)
    reward: Optional[float] = _wire("reward", _number, absent=_absent)
    success: Optional[bool] = _wire("success", _boolean, absent=_absent)
    intent: Optional[str] = _wire("intent", _text, absent=_absent)
    memory_id: Optional[str] = _wire("memoryId", _text, absent=_absent)


@dataclass(frozen=True)
class Events:
    """Recent events, oldest first; pass ``next`` as ``after`` to poll for newer ones."""

    events: List[ActivityEvent] = _wire("events", _nested_list(ActivityEvent), model=ActivityEvent, many=True)
    next: int = _wire("next", _integer)


@dataclass(frozen=True)
class QPoint:
    """A memory's utility after a reward (``retrieval_id`` and ``reward`` None for the current Q alone)."""

    at: datetime = _wire("at", _time)
    q: float = _wire("q", _number)
    retrieval_id: Optional[str] = _wire("retrievalId", _optional_text)
    reward: Optional[float] = _wire("reward", _optional_number)


@dataclass(frozen=True)
class MemoryRetrieval:
    """A retrieval whose pool held the memory, with the reward it got (None until rewarded)."""

    retrieval_id: str = _wire("retrievalId", _text)
    at: datetime = _wire("at", _time)
    intent: Optional[str] = _wire("intent", _optional_text)
    similarity: float = _wire("similarity", _number)
    score: float = _wire("score", _number)
    selected: bool = _wire("selected", _boolean)
    probability: float = _wire("probability", _number)
    reward: Optional[float] = _wire("reward", _optional_number)
    success: Optional[bool] = _wire("success", _optional_boolean)


@dataclass(frozen=True)
class MemoryHistory:
    """The answer of :meth:`MemLoopClient.history`: Q over time and the retrievals that showed the memory.

    ``complete`` is False when the server's bounds dropped older entries; both lists cover ``since`` onwards.
    """

    memory: Memory = _wire("memory", _nested(Memory), model=Memory)
    q: List[QPoint] = _wire("q", _nested_list(QPoint), model=QPoint, many=True)
    retrievals: List[MemoryRetrieval] = _wire("retrievals", _nested_list(MemoryRetrieval), model=MemoryRetrieval, many=True)
    complete: bool = _wire("complete", _boolean)
    since: datetime = _wire("since", _time)


@dataclass(frozen=True)
class Neighbour:
    """A memory of a nearby intent, with the similarity of the two intents."""

    memory: Memory = _wire("memory", _nested(Memory), model=Memory)
    similarity: float = _wire("similarity", _number)


@dataclass(frozen=True)
class Neighbours:
    """The answer of :meth:`MemLoopClient.neighbours`."""

    neighbours: List[Neighbour] = _wire("neighbours", _nested_list(Neighbour), model=Neighbour, many=True)


@dataclass(frozen=True)
class ExplainConfig:
    """The knobs that decided a selection (``q_min`` is a number or a text such as ``-Infinity``)."""

    k1: int = _wire("k1", _integer)
    k2: int = _wire("k2", _integer)
    similarity_threshold: float = _wire("similarityThreshold", _number)
    lambda_: float = _wire("lambda", _number)
    q_min: Any = _wire("qMin", _number_or_text)
    exploration: str = _wire("exploration", _text)
    epsilon: float = _wire("epsilon", _number)
    tie_break: str = _wire("tieBreak", _text)
    task_learning: bool = _wire("taskLearning", _boolean)


@dataclass(frozen=True)
class Recalled:
    """How much similarity recall (Phase A) found: intent groups and their memories."""

    intents: int = _wire("intents", _integer)
    memories: int = _wire("memories", _integer)


@dataclass(frozen=True)
class ExplainCandidate:
    """One recalled memory and what each step of the selection made of it."""

    rank: int = _wire("rank", _integer)
    memory: Memory = _wire("memory", _nested(Memory), model=Memory)
    similarity: float = _wire("similarity", _number)
    q: float = _wire("q", _number)
    norm_similarity: float = _wire("normSimilarity", _number)
    norm_q: float = _wire("normQ", _number)
    score: float = _wire("score", _number)
    eligible: bool = _wire("eligible", _boolean)
    dropped: Optional[str] = _wire("dropped", _optional_text)
    tier: Optional[str] = _wire("tier", _optional_text)
    greedy: bool = _wire("greedy", _boolean)
    probability: float = _wire("probability", _number)
    shown: bool = _wire("shown", _boolean)


@dataclass(frozen=True)
class ExplainStep:
    """One step of the selection pipeline, and what it did for this task."""

    step: str = _wire("step", _text)
    detail: str = _wire("detail", _text)


@dataclass(frozen=True)
class Explanation:
    """The answer of :meth:`MemLoopClient.explain`: why a retrieval for this task would show what it shows."""

    config: ExplainConfig = _wire("config", _nested(ExplainConfig), model=ExplainConfig)
    recalled: Recalled = _wire("recalled", _nested(Recalled), model=Recalled)
    candidates: List[ExplainCandidate] = _wire("candidates", _nested_list(ExplainCandidate), model=ExplainCandidate, many=True)
    steps: List[ExplainStep] = _wire("steps", _nested_list(ExplainStep), model=ExplainStep, many=True)
    shown: List[str] = _wire("shown", _texts)


@dataclass(frozen=True)
class DecisionReport:
    """The answer of :meth:`MemLoopClient.report`: the off-policy evaluation of other configurations.

    When ``available`` is False, ``reason`` says why (e.g. the server keeps no event log) and the rest is None;
    otherwise the fields are ``memloop evaluate --json``'s: ``candidates`` holds each configuration's estimates
    and warnings.
    """

    available: bool = _wire("available", _boolean)
    reason: Optional[str] = _wire("reason", _text, absent=_absent)
    decisions: Optional[int] = _wire("decisions", _integer, absent=_absent)
    logged_reward: Optional[float] = _wire("loggedReward", _number, absent=_absent)
    logged_success: Optional[Dict[str, Any]] = _wire("loggedSuccess", _object, absent=_absent)
    candidates: Optional[List[Any]] = _wire("candidates", _array, absent=_absent)
    skipped: Optional[List[Any]] = _wire("skipped", _array, absent=_absent)
