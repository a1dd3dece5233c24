"""MemLoop client: runtime reinforcement learning over an agent's experience memory, over HTTP.

    from memloop import MemLoopClient
    client = MemLoopClient("http://127.0.0.1:7070", namespace="team-a")  # key from MEMLOOP_API_KEY
    r = client.retrieve("restart nginx on staging")
    ...  # the agent acts, shown r.selected
    client.end_episode(r.retrieval_id, 1.0, "restart nginx on staging", "systemctl restart nginx", "success")

Standard library only. Errors are :class:`MemLoopError` subclasses carrying ``status``, ``code``, ``field`` and
``message`` from the server.
"""

from ._client import IDEMPOTENT, OPERATIONS, MemLoopClient, Operation, __version__
from ._errors import (
    BadRequest,
    Conflict,
    ConnectionError,
    Forbidden,
    MemLoopError,
    MethodNotAllowed,
    MisdirectedRequest,
    NotFound,
    PayloadTooLarge,
    ServerError,
    ServiceUnavailable,
    Unauthorized,
    UnexpectedResponse,
    UnsupportedMediaType,
)
from ._models import (
    Activity,
    ActivityBucket,
    ActivityEvent,
    Candidate,
    Config,
    DecisionReport,
    EmbeddingModel,
    EpisodeEnd,
    Events,
    ExplainCandidate,
    ExplainConfig,
    Explanation,
    ExplainStep,
    Exploration,
    Learned,
    Memory,
    MemoryHistory,
    MemoryPage,
    MemoryRetrieval,
    Neighbour,
    Neighbours,
    NoteDepth,
    Order,
    Outcome,
    Overview,
    QPoint,
    Recalled,
    Retrieval,
    RewardResult,
    SimilarityBlocks,
    SimilarityDirections,
    TextSimilarity,
    Doubt,
    DirectionsUse,
    TextAlone,
    Sort,
    Stats,
    UpdatedMemory,
    UtilityChange,
)

__all__ = [
    "MemLoopClient", "Operation", "OPERATIONS", "IDEMPOTENT", "__version__",
    "MemLoopError", "BadRequest", "Unauthorized", "Forbidden", "NotFound", "MethodNotAllowed", "Conflict",
    "PayloadTooLarge", "UnsupportedMediaType", "MisdirectedRequest", "ServerError", "ServiceUnavailable",
    "UnexpectedResponse",  # memloop.ConnectionError too, left out here so that `import *` keeps the built-in name
    "Memory", "Candidate", "Retrieval", "UtilityChange", "UpdatedMemory", "RewardResult", "EpisodeEnd",
    "MemoryPage", "EmbeddingModel", "Stats", "Config", "Outcome", "Sort", "Order",
    "Overview", "Learned", "Exploration", "NoteDepth", "SimilarityBlocks", "SimilarityDirections", "TextSimilarity", "Doubt", "DirectionsUse", "TextAlone", "Activity", "ActivityBucket", "Events", "ActivityEvent",
    "MemoryHistory", "QPoint", "MemoryRetrieval", "Neighbours", "Neighbour", "Explanation", "ExplainConfig",
    "Recalled", "ExplainCandidate", "ExplainStep", "DecisionReport",
]
