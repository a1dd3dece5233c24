package io.memloop.cli;

import io.memloop.MemLoopException;
import java.util.regex.Pattern;

/** Ids the store prints (memory {@code m12}, retrieval {@code r7}); anything else cannot name one. */
final class Ids {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

  private Ids() {}

  static String require(String id, String flag) {
    if (!ID.matcher(id).matches()) {
      throw MemLoopException.invalid(flag, "is not an id like the ones memloop prints (m12, r7), got '" + Embeddings.abbreviate(id) + "'");
    }
    return id;
  }
}
