package io.memloop;

/**
 * The one exception the engine throws for a request it cannot serve. {@link #reason()} tells the
 * transport how to answer (HTTP status, CLI exit code); {@link #field()} names the offending input
 * where there is one. Messages are meant for the user: they say what was wrong and with what value.
 */
public final class MemLoopException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a request failed; stable, transports map it to status codes. */
  public enum Reason {
    /** A field of the request is missing, malformed or out of range. */
    INVALID_ARGUMENT,
    /** The request names something that does not exist (memory, retrieval, namespace). */
    NOT_FOUND,
    /** The request conflicts with the current state (e.g. a retrieval already rewarded). */
    CONFLICT,
    /** The store on disk cannot be read (corrupt, wrong version, wrong dimension). */
    STORE_CORRUPT,
    /** The store cannot be used right now (locked by another process, I/O failure). */
    STORE_UNAVAILABLE,
    /** The embedding model failed. */
    EMBEDDING_FAILED,
    /** A chat (language) model failed: unreachable, refused the request or answered unusably. */
    MODEL_FAILED
  }

  private final Reason reason;
  private final String field;

  public MemLoopException(Reason reason, String field, String message) {
    super(message);
    this.reason = reason;
    this.field = field;
  }

  public MemLoopException(Reason reason, String field, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
    this.field = field;
  }

  public static MemLoopException invalid(String field, String problem) {
    return new MemLoopException(Reason.INVALID_ARGUMENT, field, field + ": " + problem);
  }

  public Reason reason() {
    return reason;
  }

  /** The request field at fault, or {@code ""} when the failure is not about one field. */
  public String field() {
    return field;
  }
}
