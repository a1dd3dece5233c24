/**
 * Every operation of the OpenAPI document (by `operationId`), its method and path, and the client method that
 * calls it. The client sends its requests from this table, and the tests check the table against
 * openapi.json: an operation added to, changed in or removed from the API fails them until the client follows.
 */
export const OPERATIONS = {
  health: { method: "GET", path: "/v1/health", clientMethod: "health" },
  ready: { method: "GET", path: "/v1/ready", clientMethod: "ready" },
  openapi: { method: "GET", path: "/v1/openapi.json", clientMethod: "openapi" },
  metrics: { method: "GET", path: "/metrics", clientMethod: "metrics" },
  listNamespaces: { method: "GET", path: "/v1/namespaces", clientMethod: "namespaces" },
  retrieve: { method: "POST", path: "/v1/namespaces/{ns}/retrieve", clientMethod: "retrieve" },
  reward: { method: "POST", path: "/v1/namespaces/{ns}/rewards", clientMethod: "reward" },
  endEpisode: { method: "POST", path: "/v1/namespaces/{ns}/episodes", clientMethod: "endEpisode" },
  remember: { method: "POST", path: "/v1/namespaces/{ns}/memories", clientMethod: "remember" },
  listMemories: { method: "GET", path: "/v1/namespaces/{ns}/memories", clientMethod: "list" },
  getMemory: { method: "GET", path: "/v1/namespaces/{ns}/memories/{id}", clientMethod: "get" },
  editMemory: { method: "PATCH", path: "/v1/namespaces/{ns}/memories/{id}", clientMethod: "edit" },
  forgetMemory: { method: "DELETE", path: "/v1/namespaces/{ns}/memories/{id}", clientMethod: "forget" },
  stats: { method: "GET", path: "/v1/namespaces/{ns}/stats", clientMethod: "stats" },
  getConfig: { method: "GET", path: "/v1/namespaces/{ns}/config", clientMethod: "config" },
  putConfig: { method: "PUT", path: "/v1/namespaces/{ns}/config", clientMethod: "configure" },
  overview: { method: "GET", path: "/v1/namespaces/{ns}/overview", clientMethod: "overview" },
  events: { method: "GET", path: "/v1/namespaces/{ns}/events", clientMethod: "events" },
  memoryHistory: { method: "GET", path: "/v1/namespaces/{ns}/memories/{id}/history", clientMethod: "history" },
  memoryNeighbours: { method: "GET", path: "/v1/namespaces/{ns}/memories/{id}/neighbours", clientMethod: "neighbours" },
  explain: { method: "POST", path: "/v1/namespaces/{ns}/explain", clientMethod: "explain" },
  report: { method: "GET", path: "/v1/namespaces/{ns}/report", clientMethod: "report" },
} as const;

/** An operation's `operationId`. */
export type OperationId = keyof typeof OPERATIONS;

/** The query parameters `list` sends, in the order it sends them (each one of {@link ListQuery}'s fields). */
export const LIST_QUERY_PARAMETERS = [
  "limit", "after", "text", "outcome", "minQ", "maxQ", "minVisits", "maxVisits",
  "createdFrom", "createdTo", "updatedFrom", "updatedTo", "sort", "order",
] as const;

/** Methods that may be sent again after a failure: repeating them changes nothing more than the first did. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "PUT", "DELETE"]);
