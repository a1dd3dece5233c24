export { MemLoopClient } from "./client.js";
export type { CallOptions, MemLoopClientOptions } from "./client.js";
export {
  ConflictError,
  ConnectionError,
  ForbiddenError,
  InvalidArgumentError,
  MemLoopError,
  MemLoopTimeoutError,
  NotFoundError,
  PayloadTooLargeError,
  ServerError,
  UnauthorizedError,
  UnavailableError,
} from "./errors.js";
export { OPERATIONS } from "./operations.js";
export type { OperationId } from "./operations.js";
export type * from "./types.js";
