import {
  ConnectionError,
  InvalidArgumentError,
  MemLoopError,
  MemLoopTimeoutError,
  errorFor,
} from "./errors.js";
import { IDEMPOTENT_METHODS, LIST_QUERY_PARAMETERS, OPERATIONS, type OperationId } from "./operations.js";
import type {
  DecisionReport,
  Events,
  Explanation,
  MemoryHistory,
  Neighbours,
  Overview,
  Config,
  ConfigRequest,
  EpisodeEnd,
  EpisodeRequest,
  ListQuery,
  Memory,
  MemoryPage,
  NamespaceList,
  RememberRequest,
  Retrieval,
  RetrieveRequest,
  RewardRequest,
  RewardResult,
  Stats,
  Status,
} from "./types.js";

/** Options of {@link MemLoopClient}. */
export interface MemLoopClientOptions {
  /** The server, e.g. `http://127.0.0.1:7070` (a path prefix behind a proxy is kept). */
  baseUrl: string;
  /** The API key (`memloop keys add`); default: the environment's `MEMLOOP_API_KEY` where there is one (Node). */
  apiKey?: string;
  /** The namespace of every call that does not name one. */
  namespace?: string;
  /** Time allowed for one attempt, answer body included (default 30,000 ms). */
  timeoutMs?: number;
  /** How many times a GET, PUT or DELETE is sent again after a connection failure, a timeout or a 502/503/504 (default 2). POST and PATCH are never repeated. */
  retries?: number;
  /** The first wait before a retry (default 200 ms); it doubles with every retry, up to 5 s, with jitter. */
  retryDelayMs?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Per-call options. */
export interface CallOptions {
  /** The namespace of this call, instead of the client's. */
  namespace?: string | undefined;
  /** Aborts the call (and its retries). */
  signal?: AbortSignal | undefined;
  /** Time allowed for one attempt of this call, instead of the client's. */
  timeoutMs?: number | undefined;
}

const RETRY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
const MAX_RETRY_DELAY_MS = 5_000;

/**
 * A client of `memloop serve`'s HTTP API (`/v1`): one method per operation of its OpenAPI document. Results
 * are the server's JSON answers, typed; every failure is a {@link MemLoopError}. Safe to share: it keeps no
 * state between calls.
 *
 * ```ts
 * const memloop = new MemLoopClient({ baseUrl: "http://127.0.0.1:7070", namespace: "team-a" });
 * const r = await memloop.retrieve("restart nginx on staging");
 * await memloop.endEpisode({ retrievalId: r.retrievalId, reward: 1, intent: "restart nginx on staging",
 *   experience: "systemctl restart nginx, then check /healthz", outcome: "success" });
 * ```
 */
export class MemLoopClient {
  readonly baseUrl: string;
  readonly namespace: string | undefined;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: MemLoopClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new InvalidArgumentError(0, "invalid_argument", "baseUrl", `baseUrl: not a URL: '${String(options.baseUrl).slice(0, 100)}'`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new InvalidArgumentError(0, "invalid_argument", "baseUrl", `baseUrl: must be http:// or https://, got '${url.protocol}'`);
    }
    if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
      throw new InvalidArgumentError(0, "invalid_argument", "baseUrl", "baseUrl: must have no query, fragment or user info");
    }
    this.baseUrl = url.href.replace(/\/+$/, "");
    this.#apiKey = options.apiKey ?? environmentKey();
    this.namespace = options.namespace;
    this.timeoutMs = whole(options.timeoutMs, 30_000, 1, "timeoutMs");
    this.retries = whole(options.retries, 2, 0, "retries");
    this.retryDelayMs = whole(options.retryDelayMs, 200, 0, "retryDelayMs");
    const f = options.fetch ?? globalThis.fetch;
    if (typeof f !== "function") {
      throw new InvalidArgumentError(0, "invalid_argument", "fetch", "fetch: no global fetch here (Node >= 18 has one); pass options.fetch");
    }
    this.#fetch = f;
  }

  /** Two-phase retrieval for a task (given in words, or as a request with an embedding): reward it with its `retrievalId`. */
  async retrieve(intent: string | RetrieveRequest, options?: CallOptions): Promise<Retrieval> {
    const body = typeof intent === "string" ? { intent } : intent;
    return this.#json<Retrieval>("retrieve", { ns: this.#ns(options) }, { body, options });
  }

  /** Rewards a retrieval with the task's outcome (default range -1 failure to 1 success). */
  async reward(request: RewardRequest, options?: CallOptions): Promise<RewardResult> {
    return this.#json<RewardResult>("reward", { ns: this.#ns(options) }, { body: request, options });
  }

  /** Stores an experience (201): what worked, or what went wrong and what to avoid. */
  async remember(request: RememberRequest, options?: CallOptions): Promise<Memory> {
    return this.#json<Memory>("remember", { ns: this.#ns(options) }, { body: request, options });
  }

  /** Ends an episode: the reward and the new experience as one write (nothing is written if any field is bad). */
  async endEpisode(request: EpisodeRequest, options?: CallOptions): Promise<EpisodeEnd> {
    return this.#json<EpisodeEnd>("endEpisode", { ns: this.#ns(options) }, { body: request, options });
  }

  /** One memory. */
  async get(memoryId: string, options?: CallOptions): Promise<Memory> {
    return this.#json<Memory>("getMemory", { ns: this.#ns(options), id: required(memoryId, "memoryId") }, { options });
  }

  /** Replaces a memory's experience text in place (it keeps its id, intent, outcome, utility and visits). */
  async edit(memoryId: string, experience: string, options?: CallOptions): Promise<Memory> {
    return this.#json<Memory>("editMemory", { ns: this.#ns(options), id: required(memoryId, "memoryId") },
      { body: { experience }, options });
  }

  /** Deletes a memory (durable on return). */
  async forget(memoryId: string, options?: CallOptions): Promise<void> {
    await this.#call("forgetMemory", { ns: this.#ns(options), id: required(memoryId, "memoryId") }, { options });
  }

  /** One page of memories matching `query` (all of them, oldest first, without filters); `next` gives the following page. */
  async list(query: ListQuery = {}, options?: CallOptions): Promise<MemoryPage> {
    return this.#json<MemoryPage>("listMemories", { ns: this.#ns(options) }, { query: listParameters(query), options });
  }

  /** Every page of `query`, from `query.after` (or the first) to the last. */
  async *pages(query: ListQuery = {}, options?: CallOptions): AsyncGenerator<MemoryPage, void, undefined> {
    let after = query.after;
    for (;;) {
      const page = await this.list(after === undefined ? query : { ...query, after }, options);
      yield page;
      if (page.next === null) {
        return;
      }
      after = page.next;
    }
  }

  /** Every memory matching `query`, over all pages: `for await (const m of client.listAll({ outcome: "failure" }))`. */
  async *listAll(query: ListQuery = {}, options?: CallOptions): AsyncGenerator<Memory, void, undefined> {
    for await (const page of this.pages(query, options)) {
      yield* page.memories;
    }
  }

  /** Counts, the utility distribution and the embedding model of the namespace. */
  async stats(options?: CallOptions): Promise<Stats> {
    return this.#json<Stats>("stats", { ns: this.#ns(options) }, { options });
  }

  /** The namespace's configuration (or the one it will get, until first used). */
  async config(options?: CallOptions): Promise<Config> {
    return this.#json<Config>("getConfig", { ns: this.#ns(options) }, { options });
  }

  /** Records a preset and knob overrides as the namespace's configuration; returns it. */
  async configure(request: ConfigRequest, options?: CallOptions): Promise<Config> {
    return this.#json<Config>("putConfig", { ns: this.#ns(options) }, { body: request, options });
  }

  /** The inspector's overview: stats, configuration, what per-task learning learned, per-minute activity. */
  async overview(options?: CallOptions): Promise<Overview> {
    return this.#json<Overview>("overview", { ns: this.#ns(options) }, { options });
  }

  /** Events since the server started, oldest first: after `after` (the previous answer's `next`), at most `limit`. */
  async events(query: { after?: number; limit?: number } = {}, options?: CallOptions): Promise<Events> {
    const q = new URLSearchParams();
    if (query.after !== undefined) q.set("after", String(query.after));
    if (query.limit !== undefined) q.set("limit", String(query.limit));
    return this.#json<Events>("events", { ns: this.#ns(options) }, { query: q, options });
  }

  /** A memory's Q over time and the retrievals that pooled it, since the server started. */
  async history(memoryId: string, options?: CallOptions): Promise<MemoryHistory> {
    return this.#json<MemoryHistory>("memoryHistory", { ns: this.#ns(options), id: required(memoryId, "memoryId") }, { options });
  }

  /** The memories of the intents nearest a memory's own. */
  async neighbours(memoryId: string, limit?: number, options?: CallOptions): Promise<Neighbours> {
    return this.#json<Neighbours>("memoryNeighbours", { ns: this.#ns(options), id: required(memoryId, "memoryId") },
      { query: new URLSearchParams(limit === undefined ? {} : { limit: String(limit) }), options });
  }

  /** Why a retrieval for `intent` would select what it selects now; changes nothing. */
  async explain(intent: string, options?: CallOptions): Promise<Explanation> {
    return this.#json<Explanation>("explain", { ns: this.#ns(options) }, { body: { intent }, options });
  }

  /** The decision report of the server's event log for the namespace. */
  async report(options?: CallOptions): Promise<DecisionReport> {
    return this.#json<DecisionReport>("report", { ns: this.#ns(options) }, { options });
  }

  /** Liveness: `{status: "ok"}` while the process serves requests. */
  async health(options?: CallOptions): Promise<Status> {
    return this.#json<Status>("health", {}, { options });
  }

  /** Readiness: `{status: "ready"}`; an {@link UnavailableError} (503) while stopping or when the store fails. */
  async ready(options?: CallOptions): Promise<Status> {
    return this.#json<Status>("ready", {}, { options });
  }

  /** The namespaces this key may use that hold data, sorted. */
  async namespaces(options?: CallOptions): Promise<string[]> {
    return (await this.#json<NamespaceList>("listNamespaces", {}, { options })).namespaces;
  }

  /** The server's OpenAPI document. */
  async openapi(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.#json<Record<string, unknown>>("openapi", {}, { options });
  }

  /** The server's Prometheus metrics, as text. */
  async metrics(options?: CallOptions): Promise<string> {
    return (await this.#call("metrics", {}, { options, accept: "text/plain" })).text;
  }

  /** The key is not part of what a client shows of itself (console.log, JSON). */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, namespace: this.namespace, timeoutMs: this.timeoutMs, retries: this.retries };
  }

  #ns(options: CallOptions | undefined): string {
    const ns = options?.namespace ?? this.namespace;
    if (ns === undefined) {
      throw new InvalidArgumentError(0, "invalid_argument", "namespace",
        "namespace: none given; pass it to the MemLoopClient constructor or in the call's options");
    }
    return required(ns, "namespace");
  }

  async #json<T>(op: OperationId, params: PathParams, request: RequestParts): Promise<T> {
    const { text, status } = await this.#call(op, params, request);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new MemLoopError(status, "bad_response", "", `${OPERATIONS[op].method} ${OPERATIONS[op].path}: the answer (${status}) is not JSON`);
    }
  }

  /** Sends one operation, repeating it as the retry policy allows; the answer's status and text, or the error. */
  async #call(op: OperationId, params: PathParams, request: RequestParts): Promise<{ status: number; text: string }> {
    const { method, path } = OPERATIONS[op];
    const url = this.baseUrl + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))
      + (request.query === undefined || request.query.toString() === "" ? "" : "?" + request.query.toString());
    const headers: Record<string, string> = { Accept: request.accept ?? "application/json" };
    if (this.#apiKey !== undefined) {
      headers["Authorization"] = `Bearer ${this.#apiKey}`;
    }
    let body: string | undefined;
    if (request.body !== undefined) {
      headers["Content-Type"] = "application/json";
      requireFinite(request.body, "", "");
      body = JSON.stringify(request.body);
    }
    const signal = request.options?.signal;
    const timeoutMs = whole(request.options?.timeoutMs, this.timeoutMs, 1, "timeoutMs");
    const attempts = IDEMPOTENT_METHODS.has(method) ? this.retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      let failure: MemLoopError;
      try {
        const answer = await this.#attempt(url, { method, headers, body }, timeoutMs, signal);
        if (answer.status < 400) {
          return answer;
        }
        failure = this.#errorOf(answer.status, answer.text);
        if (!RETRY_STATUSES.has(answer.status)) {
          throw failure;
        }
      } catch (e) {
        if (e instanceof MemLoopError && !(e instanceof ConnectionError || e instanceof MemLoopTimeoutError)) {
          throw e;
        }
        if (!(e instanceof MemLoopError)) {
          throw e; // the caller's abort
        }
        failure = e;
      }
      if (attempt >= attempts) {
        throw failure;
      }
      await sleep(this.#delay(attempt), signal);
    }
  }

  /** One request: the status and the whole answer text, within `timeoutMs`. */
  async #attempt(url: string, init: { method: string; headers: Record<string, string>; body: string | undefined },
      timeoutMs: number, signal: AbortSignal | undefined): Promise<{ status: number; text: string }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await this.#fetch(url, { ...init, body: init.body ?? null, signal: controller.signal, redirect: "error" });
      return { status: response.status, text: await response.text() };
    } catch (e) {
      if (signal?.aborted) {
        throw signal.reason;
      }
      const where = `${init.method} ${redact(url, this.#apiKey)}`;
      if (timedOut) {
        throw new MemLoopTimeoutError(0, "timeout", "", `${where}: no answer within ${timeoutMs} ms`);
      }
      const reason = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
      throw new ConnectionError(0, "connection_failed", "", `${where}: ${redact(reason, this.#apiKey)}`, { cause: e });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** The error for an error answer: its body's code, field and message, else the status alone. */
  #errorOf(status: number, text: string): MemLoopError {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const error = (parsed as { error?: unknown } | undefined)?.error;
    if (typeof error === "object" && error !== null) {
      const e = error as Record<string, unknown>;
      const code = typeof e["code"] === "string" ? e["code"] : `http_${status}`;
      const field = typeof e["field"] === "string" ? e["field"] : "";
      const message = typeof e["message"] === "string" ? e["message"] : `HTTP ${status}`;
      return errorFor(status, code, field, redact(message, this.#apiKey));
    }
    const statusText = (parsed as { status?: unknown } | undefined)?.status;
    const detail = typeof statusText === "string" ? statusText : text.replace(/\s+/g, " ").trim().slice(0, 200);
    return errorFor(status, status === 503 ? "unavailable" : `http_${status}`, "",
      redact(`HTTP ${status}${detail === "" ? "" : ": " + detail}`, this.#apiKey));
  }

  /** Exponential backoff with jitter: about retryDelayMs, then twice that, ..., at most 5 s. */
  #delay(attempt: number): number {
    const ceiling = Math.min(MAX_RETRY_DELAY_MS, this.retryDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

type PathParams = Record<string, string>;

interface RequestParts {
  body?: unknown;
  query?: URLSearchParams;
  options?: CallOptions | undefined;
  accept?: string;
}

/** The query string of a list call: only the parameters given; outcomes comma-separated, dates as ISO-8601 instants. */
function listParameters(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams();
  const given = query as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!(LIST_QUERY_PARAMETERS as readonly string[]).includes(name)) {
      throw new InvalidArgumentError(0, "invalid_argument", name,
        `${name}: not a list parameter (known: ${LIST_QUERY_PARAMETERS.join(", ")})`);
    }
  }
  for (const name of LIST_QUERY_PARAMETERS) {
    const value = given[name];
    if (value === undefined || value === null) {
      continue;
    }
    if (Array.isArray(value)) {
      params.set(name, value.join(","));
    } else if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) {
        throw new InvalidArgumentError(0, "invalid_argument", name, `${name}: an invalid Date`);
      }
      params.set(name, value.toISOString());
    } else {
      params.set(name, String(value));
    }
  }
  return params;
}

/**
 * JSON has no NaN or Infinity (JSON.stringify would send null, which the server reports as a missing field):
 * refused before sending, naming the field (`reward`, `knobs.alpha`; an array's entry by the array's name).
 */
function requireFinite(value: unknown, field: string, path: string): void {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new InvalidArgumentError(0, "invalid_argument", field, `${path}: must be a finite number, got ${value}`);
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => requireFinite(v, field, `${path}[${i}]`));
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const name = field === "" ? k : `${field}.${k}`;
      requireFinite(v, name, name);
    }
  }
}

function required(value: string, field: string): string {
  if (typeof value !== "string" || value === "") {
    throw new InvalidArgumentError(0, "invalid_argument", field, `${field}: must be a non-empty string`);
  }
  return value;
}

function whole(value: number | undefined, fallback: number, min: number, field: string): number {
  if (value === undefined) {
    return fallback;
  }
  if (!Number.isInteger(value) || value < min) {
    throw new InvalidArgumentError(0, "invalid_argument", field, `${field}: must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

function redact(text: string, key: string | undefined): string {
  return key === undefined || key === "" ? text : text.split(key).join("[redacted]");
}

function environmentKey(): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const key = env?.["MEMLOOP_API_KEY"];
  return key === undefined || key === "" ? undefined : key;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
