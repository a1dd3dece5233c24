/**
 * Every failure of a {@link MemLoopClient} call. An answer from the server carries its HTTP `status` and the
 * `code`, `field` and `message` of its error body (`{"error": {"code", "field", "message"}}`); a call that got
 * no answer (connection failed, timed out) or was refused before sending has `status` 0. Messages never
 * contain the API key.
 */
export class MemLoopError extends Error {
  /** The HTTP status, or 0 when there was no answer. */
  readonly status: number;
  /** `invalid_argument`, `not_found`, `conflict`, `unauthorized`, `too_large`, ..., `connection_failed`, `timeout`. */
  readonly code: string;
  /** The request field at fault, or empty. */
  readonly field: string;

  constructor(status: number, code: string, field: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** 400 (or a request the client refused before sending it, with status 0): a field is missing, malformed or out of range. */
export class InvalidArgumentError extends MemLoopError {}

/** 401: no API key, or not a valid one. */
export class UnauthorizedError extends MemLoopError {}

/** 403: refused, e.g. a browser page whose origin the server was not started with (`--allow-origin`). */
export class ForbiddenError extends MemLoopError {}

/** 404: no such memory or retrieval, or a namespace this key may not use (the same answer as one that does not exist). */
export class NotFoundError extends MemLoopError {}

/** 409: the state does not allow it, e.g. a retrieval that was already rewarded. */
export class ConflictError extends MemLoopError {}

/** 413: the body is over the server's size limit. */
export class PayloadTooLargeError extends MemLoopError {}

/** 5xx: the server failed (502: the embedding model failed; 503: see {@link UnavailableError}). */
export class ServerError extends MemLoopError {}

/** 503: the store is unavailable, or the server is stopping. */
export class UnavailableError extends ServerError {}

/** No answer: the connection could not be made or broke before the answer was read. */
export class ConnectionError extends MemLoopError {}

/** No answer within the client's `timeoutMs`. */
export class MemLoopTimeoutError extends MemLoopError {}

/** The error for an answer with `status`, from its error body's fields. */
export function errorFor(status: number, code: string, field: string, message: string): MemLoopError {
  switch (status) {
    case 400:
      return new InvalidArgumentError(status, code, field, message);
    case 401:
      return new UnauthorizedError(status, code, field, message);
    case 403:
      return new ForbiddenError(status, code, field, message);
    case 404:
      return new NotFoundError(status, code, field, message);
    case 409:
      return new ConflictError(status, code, field, message);
    case 413:
      return new PayloadTooLargeError(status, code, field, message);
    case 503:
      return new UnavailableError(status, code, field, message);
    default:
      return status >= 500 ? new ServerError(status, code, field, message) : new MemLoopError(status, code, field, message);
  }
}
