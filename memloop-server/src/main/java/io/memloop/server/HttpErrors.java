package io.memloop.server;

import io.memloop.MemLoopException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Error answers: an HTTP status from the engine's {@link MemLoopException.Reason}, and one JSON body
 * shape for every error, {@code {"error": {"code": "invalid_argument", "field": "reward", "message": "..."}}}.
 */
final class HttpErrors {
  private HttpErrors() {}

  static int status(MemLoopException e) {
    return switch (e.reason()) {
      case INVALID_ARGUMENT -> 400;
      case NOT_FOUND -> 404;
      case CONFLICT -> 409;
      case STORE_UNAVAILABLE -> 503;
      case EMBEDDING_FAILED, MODEL_FAILED -> 502;
      case STORE_CORRUPT -> 500;
    };
  }

  static Map<String, Object> body(String code, String field, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("field", field);
    error.put("message", message);
    return Map.of("error", error);
  }

  static Map<String, Object> body(MemLoopException e) {
    return body(e.reason().name().toLowerCase(Locale.ROOT), e.field(), e.getMessage());
  }

  /**
   * The answer for a namespace a key may not use: the same as for one that does not exist, so a key
   * cannot learn which namespaces exist.
   */
  static MemLoopException namespaceNotFound(String ns) {
    return new MemLoopException(MemLoopException.Reason.NOT_FOUND, "namespace",
        "namespace: no namespace '" + ns + "' for this API key");
  }
}
