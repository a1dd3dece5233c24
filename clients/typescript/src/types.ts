// The JSON shapes of the MemLoop HTTP API (memloop serve, /v1), as documented by its OpenAPI document
// (memloop-server/src/main/resources/io/memloop/server/openapi.json). test/api-types.ts checks every one of
// them against types generated from that document, so that the two cannot drift apart unnoticed.

/** How a task ended. */
export type Outcome = "success" | "failure" | "unknown";

/** One experience with its learned utility. Ids are opaque tokens (`m_…`, `i_…`) bound to the namespace. */
export interface Memory {
  id: string;
  namespace: string;
  /** The intent group it belongs to. */
  intentId: string;
  /** The task text it was remembered under (empty if given only as an embedding). */
  intent: string;
  experience: string;
  /** The note's attempts, newest first (one element for a plain memory). */
  parts: string[];
  outcome: Outcome;
  /** Learned utility. */
  q: number;
  visits: number;
  /** ISO-8601 instant. */
  createdAt: string;
  /** ISO-8601 instant. */
  updatedAt: string;
}

/** One of Phase A's recalled memories with its Phase B score. */
export interface Candidate {
  id: string;
  similarity: number;
  q: number;
  score: number;
  selected: boolean;
  /** Probability that this candidate was selected under the policy's randomness (for off-policy evaluation). */
  probability: number;
}

/** The answer to {@link MemLoopClient.retrieve}. */
export interface Retrieval {
  /** Reward this retrieval with it; an opaque token (`r_…`), valid in this namespace only. */
  retrievalId: string;
  namespace: string;
  candidates: Candidate[];
  /** The experiences to show the agent, best first. */
  selected: Memory[];
}

/** One memory's utility before and after a reward. */
export interface UtilityChange {
  id: string;
  qBefore: number;
  qAfter: number;
  visits: number;
}

/** The answer to {@link MemLoopClient.reward}. */
export interface RewardResult {
  retrievalId: string;
  reward: number;
  /** Present for a Bellman/TD reward: reward + gamma * V', what the utilities moved towards. */
  target?: number;
  updated: UtilityChange[];
}

/** The answer to {@link MemLoopClient.endEpisode}: the reward and the stored experience, written as one. */
export interface EpisodeEnd {
  reward: RewardResult;
  /** The stored experience (or the memory it duplicates or was merged into). */
  memory: Memory;
}

/** The embedding model a store was made with. */
export interface EmbeddingModel {
  id: string;
  dimension: number;
}

/** Counts and the utility distribution of a namespace. */
export interface Stats {
  namespace: string;
  memories: number;
  intents: number;
  pendingRetrievals: number;
  successes: number;
  failures: number;
  meanQ: number;
  minQ: number;
  maxQ: number;
  totalVisits: number;
  /** The model the store's vectors were made with; null while the store records none (opened without an embedder). */
  model: EmbeddingModel | null;
}

/** A namespace's configuration. */
export interface Config {
  namespace: string;
  /** False until the namespace is first used or configured; knobs are then the ones it will get. */
  recorded: boolean;
  /** Every knob of the configuration as text. */
  knobs: Record<string, string>;
}

/** One page of {@link MemLoopClient.list}. */
export interface MemoryPage {
  namespace: string;
  memories: Memory[];
  /** Pass as `after` for the next page of the same query; null on the last page. */
  next: string | null;
  /** How many memories match the filters, over all pages. */
  total: number;
}

/** The answers of `/v1/health` and `/v1/ready`. */
export interface Status {
  status: string;
}

/** The error body of every 4xx and 5xx answer. */
export interface ErrorBody {
  error: {
    code: string;
    /** The request field at fault, or empty. */
    field: string;
    message: string;
  };
}

/** The task: in words, as an embedding (of the store's dimension), or both. */
export type IntentInput =
  | { intent: string; embedding?: number[] }
  | { intent?: string; embedding: number[] };

/** The body of {@link MemLoopClient.retrieve}. */
export type RetrieveRequest = IntentInput;

/** The body of {@link MemLoopClient.reward}. */
export interface RewardRequest {
  retrievalId: string;
  /** The task's outcome, in the namespace's reward range (default -1 failure to 1 success). */
  reward: number;
  /** Which selected experiences the agent actually used (at most 64). */
  usedMemoryIds?: string[];
  /** For one step of a multi-step episode: the episode's next retrieval (a Bellman/TD target). */
  nextRetrievalId?: string;
}

/** The body of {@link MemLoopClient.remember}. */
export type RememberRequest = IntentInput & {
  /** What worked, or what went wrong and what to avoid. */
  experience: string;
  outcome: Outcome;
  /** The retrieval of the episode this experience came from. */
  retrievalId?: string;
};

/** The body of {@link MemLoopClient.endEpisode}: a reward and a remember, as one write. */
export type EpisodeRequest = IntentInput & {
  retrievalId: string;
  reward: number;
  usedMemoryIds?: string[];
  nextRetrievalId?: string;
  /** What worked, or what went wrong and what to avoid. */
  experience: string;
  /** The outcome recorded with the new experience. */
  outcome: Outcome;
};

/** The body of {@link MemLoopClient.edit}. */
export interface EditRequest {
  experience: string;
}

/** The body of {@link MemLoopClient.configure}. */
export interface ConfigRequest {
  preset?: "default" | "memrl" | "similarity";
  knobs?: Record<string, string | number | boolean>;
}

/** Sort key of {@link ListQuery}. */
export type ListSort = "created" | "updated" | "q" | "visits";

/**
 * Filters, order and paging of {@link MemLoopClient.list}; every field is optional. Bounds on q and visits are
 * inclusive; `*From` instants inclusive, `*To` exclusive.
 */
export interface ListQuery {
  /** Page size, 1-1000 (server default 100). */
  limit?: number | undefined;
  /** The previous page's `next` (opaque). */
  after?: string | undefined;
  /** Words that must all occur (case-insensitively, as whole words) in the memory's intent or experience. */
  text?: string | undefined;
  /** One outcome or several. */
  outcome?: Outcome | readonly Outcome[] | undefined;
  minQ?: number | undefined;
  maxQ?: number | undefined;
  minVisits?: number | undefined;
  maxVisits?: number | undefined;
  createdFrom?: Date | string | undefined;
  createdTo?: Date | string | undefined;
  updatedFrom?: Date | string | undefined;
  updatedTo?: Date | string | undefined;
  /** Default `created` (store order). */
  sort?: ListSort | undefined;
  /** Default `asc`. */
  order?: "asc" | "desc" | undefined;
}

/** The answer of `GET /v1/namespaces`. */
export interface NamespaceList {
  namespaces: string[];
}

/** What per-task learning learned in a namespace (zero or null when it is off or has learned nothing). */
export interface Learned {
  taskLearning: boolean;
  exploration: { explored: number; exploredSuccessRate: number | null; notExplored: number; notExploredSuccessRate: number | null; probability: number | null };
  noteDepth: { whole: number; wholeSuccessRate: number | null; shortened: number; shortenedSuccessRate: number | null };
  /** The share of rewarded retrievals made by a task rewarded before; null before any reward. */
  recurrence: number | null;
  /** With vectors of several embedding models: each model's weight, in block order (empty when not split). */
  similarityBlocks: { weights: number[]; updates: number };
  /**
   * With a learned similarity (knob `similarityDirections`): the successful pairs it learned from, the pairs at its
   * latest fit, the factor (in (0, 1]) by which that fit scales each direction it discounts (most varying first; empty
   * before a fit) and the share of the pairs' variation those directions hold (null before a fit).
   */
  similarityDirections: { pairs: number; fittedAt: number; scales: number[]; varianceShare: number | null };
  /**
   * With the texts' similarity mixed in for new tasks (knob `textSimilarity`): the weights of the vectors' similarity
   * and of the texts', in that order (empty when it is not), learned from `updates` rewards. Absent from older servers.
   */
  textSimilarity?: { weights: number[]; updates: number };
  /**
   * Whether new tasks do better shown the successes whose latest use failed after the rest (knob `doubt`): episodes
   * drawn to show them last and where similarity put them, each with its success rate, and the chance that such an
   * episode shows them last now (null before any). Absent from older servers.
   */
  doubt?: { demoted: number; demotedSuccessRate: number | null; kept: number; keptSuccessRate: number | null; probability: number | null };
  /**
   * Whether new tasks do better ranked by the similarity the namespace learned or by the plain cosine (knob
   * `directionsUse`): episodes drawn to each where the two would show different memories, each with its success rate,
   * and the chance that such an episode is ranked by the learned similarity now (null before any). Absent from older
   * servers.
   */
  directionsUse?: { learned: number; learnedSuccessRate: number | null; cosine: number; cosineSuccessRate: number | null; probability: number | null };
  /**
   * Whether new tasks do better ranked by the texts' similarity alone or by the learned mix of the vectors' and the
   * texts' (knob `textAlone`): episodes drawn to each where the two would show different memories, counted over about
   * the latest 256 such draws (older ones weigh less, rounded), each with its success rate, and the chance that such an
   * episode is ranked by the texts alone now (null before any). Absent from older servers.
   */
  textAlone?: { alone: number; aloneSuccessRate: number | null; mixed: number; mixedSuccessRate: number | null; probability: number | null };
}

/** One minute's activity. */
export interface ActivityBucket {
  start: string; retrievals: number; rewards: number; successes: number; rewardSum: number; remembered: number; edited: number; forgotten: number;
}

/** `GET /overview`: stats, configuration, what was learned, per-minute activity since the server started. */
export interface Overview {
  namespace: string; stats: Stats; config: Config; learned: Learned;
  activity: { since: string; bucketSeconds: number; buckets: ActivityBucket[] };
}

/** One event the server saw since it started. */
export interface ActivityEvent {
  seq: number; at: string; type: "retrieved" | "rewarded" | "remembered" | "edited" | "forgotten" | "configured";
  retrievalId?: string; memoryIds?: string[]; reward?: number; success?: boolean; intent?: string; memoryId?: string;
}

/** `GET /events`: pass `next` as `after` to poll. */
export interface Events { events: ActivityEvent[]; next: number }

/** `GET /memories/{id}/history`. */
export interface MemoryHistory {
  memory: Memory;
  q: { at: string; q: number; retrievalId: string | null; reward: number | null }[];
  retrievals: { retrievalId: string; at: string; intent: string | null; similarity: number; score: number; selected: boolean;
    probability: number; reward: number | null; success: boolean | null }[];
  complete: boolean; since: string;
}

/** `GET /memories/{id}/neighbours`. */
export interface Neighbours { neighbours: { memory: Memory; similarity: number }[] }

/** `POST /explain`: why a retrieval for an intent would select what it selects (read-only). */
export interface Explanation {
  config: { k1: number; k2: number; similarityThreshold: number; lambda: number; qMin: number | string; exploration: string;
    epsilon: number; tieBreak: string; taskLearning: boolean };
  recalled: { intents: number; memories: number };
  candidates: { rank: number; memory: Memory; similarity: number; q: number; normSimilarity: number; normQ: number; score: number;
    eligible: boolean; dropped: "below qMin" | null; tier: "proven" | "proven-by-neighbours" | "unknown" | "failed-by-neighbours" | "failed" | "withheld" | null; greedy: boolean;
    probability: number; shown: boolean }[];
  steps: { step: "Score" | "TieBreak" | "QMinFilter" | "RankingSignal" | "TaskOrder" | "Explore" | "NoteDepth"; detail: string }[];
  shown: string[];
}

/** `GET /report`: the decision report of the server's event log, or why it is not available. */
export interface DecisionReport { available: boolean; reason?: string; [field: string]: unknown }
