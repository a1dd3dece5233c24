// Compile-time check (npm run typecheck:api): the client's types against the ones generated from the
// server's openapi.json (build/openapi.d.ts, made by scripts/generate-types.mjs). A field, an operation or
// a type that changes on one side only makes tsc fail here, naming the operation or schema.
//
// Answers must be the same both ways (every field, the same types, the same required ones); a request the
// client can build must be one the document accepts, with the same field names.
import type { components, operations } from "../build/openapi.js";
import type { MemLoopClient } from "../src/client.js";
import type { LIST_QUERY_PARAMETERS, OPERATIONS } from "../src/operations.js";
import type * as T from "../src/types.js";

type Schemas = components["schemas"];

/** The field names of A and B are the same. */
type SameKeys<A, B> = [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never] ? true : false;
/** A and B are assignable to each other and have the same field names. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? SameKeys<A, B> : false) : false;
/** What a client sends (A) is accepted by the document (B), and names the same fields. */
type Accepted<A, B> = [A] extends [B] ? SameKeys<A, B> : false;
type Check<T extends true> = T;

type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
type Answer<Op extends keyof operations> = Json<operations[Op]["responses"][Extract<keyof operations[Op]["responses"], 200 | 201>]>;
type Body<Op extends keyof operations> = operations[Op] extends { requestBody: infer R } ? Json<NonNullable<R>> : never;
type Result<M extends keyof MemLoopClient> = MemLoopClient[M] extends (...args: never[]) => Promise<infer R> ? R : never;

// Every operation of the document is in the client's table, and nothing else.
export type OperationsCovered = Check<SameKeys<typeof OPERATIONS, operations>>;
// Each operation's method in the table calls that operation (its client method exists).
export type MethodsExist = Check<(typeof OPERATIONS)[keyof typeof OPERATIONS]["clientMethod"] extends keyof MemLoopClient ? true : false>;

// Schemas, both ways.
export type MemorySchema = Check<Same<T.Memory, Schemas["Memory"]>>;
export type CandidateSchema = Check<Same<T.Candidate, Schemas["Candidate"]>>;
export type RetrievalSchema = Check<Same<T.Retrieval, Schemas["Retrieval"]>>;
export type UtilityChangeSchema = Check<Same<T.UtilityChange, Schemas["UtilityChange"]>>;
export type RewardResultSchema = Check<Same<T.RewardResult, Schemas["RewardResult"]>>;
export type EpisodeEndSchema = Check<Same<T.EpisodeEnd, Schemas["EpisodeEnd"]>>;
export type StatsSchema = Check<Same<T.Stats, Schemas["Stats"]>>;
export type ConfigSchema = Check<Same<T.Config, Schemas["Config"]>>;
export type MemoryPageSchema = Check<Same<T.MemoryPage, Schemas["MemoryPage"]>>;
export type StatusSchema = Check<Same<T.Status, Schemas["Status"]>>;
export type ErrorSchema = Check<Same<T.ErrorBody, Schemas["Error"]>>;

// Requests: what the client can send is what the document accepts.
export type RetrieveBody = Check<Accepted<T.RetrieveRequest, Body<"retrieve">>>;
export type RewardBody = Check<Accepted<T.RewardRequest, Body<"reward">>>;
export type RememberBody = Check<Accepted<T.RememberRequest, Body<"remember">>>;
export type EpisodeBody = Check<Accepted<T.EpisodeRequest, Body<"endEpisode">>>;
export type EditBody = Check<Same<T.EditRequest, Body<"editMemory">>>;
export type ConfigBody = Check<Same<T.ConfigRequest, Body<"putConfig">>>;

// List: the query parameters the client sends are the document's, and its ListQuery has exactly those.
type ListParameters = NonNullable<operations["listMemories"]["parameters"]["query"]>;
export type ListQueryParameters = Check<SameKeys<T.ListQuery, ListParameters>>;
export type ListQuerySent = Check<SameKeys<{ [K in (typeof LIST_QUERY_PARAMETERS)[number]]: unknown }, ListParameters>>;
export type ListOutcome = Check<[T.Outcome] extends [NonNullable<ListParameters["outcome"]>] ? true : false>;
export type ListSort = Check<Same<NonNullable<T.ListQuery["sort"]>, NonNullable<ListParameters["sort"]>>>;
export type ListOrder = Check<Same<NonNullable<T.ListQuery["order"]>, NonNullable<ListParameters["order"]>>>;

// Each client method returns its operation's answer.
export type RetrieveAnswer = Check<Same<Result<"retrieve">, Answer<"retrieve">>>;
export type RewardAnswer = Check<Same<Result<"reward">, Answer<"reward">>>;
export type RememberAnswer = Check<Same<Result<"remember">, Answer<"remember">>>;
export type EpisodeAnswer = Check<Same<Result<"endEpisode">, Answer<"endEpisode">>>;
export type GetAnswer = Check<Same<Result<"get">, Answer<"getMemory">>>;
export type EditAnswer = Check<Same<Result<"edit">, Answer<"editMemory">>>;
export type ListAnswer = Check<Same<Result<"list">, Answer<"listMemories">>>;
export type StatsAnswer = Check<Same<Result<"stats">, Answer<"stats">>>;
export type ConfigAnswer = Check<Same<Result<"config">, Answer<"getConfig">>>;
export type ConfigureAnswer = Check<Same<Result<"configure">, Answer<"putConfig">>>;
export type HealthAnswer = Check<Same<Result<"health">, Answer<"health">>>;
export type ReadyAnswer = Check<Same<Result<"ready">, Answer<"ready">>>;
export type NamespacesAnswer = Check<Same<{ namespaces: Result<"namespaces"> }, Answer<"listNamespaces">>>;
export type ForgetAnswer = Check<operations["forgetMemory"]["responses"] extends { 204: unknown } ? true : false>;
