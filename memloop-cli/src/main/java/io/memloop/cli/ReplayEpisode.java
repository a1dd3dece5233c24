package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoopException;
import io.memloop.Outcome;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One line of a replay input (format in docs/replay.md). Either {@code success} or {@code reward}
 * is given; the other is derived.
 */
record ReplayEpisode(
    int line,
    @Nullable String namespace,
    @Nullable String intent,
    float @Nullable [] embedding,
    @Nullable Boolean success,
    @Nullable Double reward,
    String experience,
    @Nullable Outcome outcome) {

  private static final Set<String> FIELDS =
      Set.of("namespace", "intent", "embedding", "success", "reward", "experience", "outcome");

  static ReplayEpisode parse(int line, JsonNode node) {
    if (!node.isObject()) {
      throw fail(line, "episode", "must be a JSON object");
    }
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!FIELDS.contains(f)) {
        throw fail(line, f, "unknown field (known: " + String.join(", ", FIELDS.stream().sorted().toList()) + ")");
      }
    }
    String intent = text(line, node, "intent");
    float[] embedding = null;
    JsonNode e = node.get("embedding");
    if (e != null && !e.isNull()) {
      try {
        embedding = Embeddings.fromJson(e, "embedding");
      } catch (MemLoopException ex) {
        throw fail(line, "embedding", ex.getMessage().substring("embedding: ".length()));
      }
    }
    if (intent == null && embedding == null) {
      throw fail(line, "intent", "is required (or give embedding)");
    }
    Boolean success = null;
    JsonNode s = node.get("success");
    if (s != null && !s.isNull()) {
      if (!s.isBoolean()) {
        throw fail(line, "success", "must be true or false");
      }
      success = s.booleanValue();
    }
    Double reward = null;
    JsonNode r = node.get("reward");
    if (r != null && !r.isNull()) {
      if (!r.isNumber() || !Double.isFinite(r.doubleValue())) {
        throw fail(line, "reward", "must be a finite number");
      }
      reward = r.doubleValue();
    }
    if (success == null && reward == null) {
      throw fail(line, "success", "is required (or give reward)");
    }
    if (success != null && reward != null) {
      throw fail(line, "reward", "give success or reward, not both");
    }
    String experience = text(line, node, "experience");
    if (experience == null) {
      throw fail(line, "experience", "is required");
    }
    Outcome outcome = null;
    String o = text(line, node, "outcome");
    if (o != null) {
      try {
        outcome = Outcome.valueOf(o.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException ex) {
        throw fail(line, "outcome", "expected success, failure or unknown, got '" + o + "'");
      }
    }
    return new ReplayEpisode(line, text(line, node, "namespace"), intent, embedding, success, reward, experience, outcome);
  }

  private static @Nullable String text(int line, JsonNode node, String field) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual() || v.textValue().isBlank()) {
      throw fail(line, field, "must be a non-empty string");
    }
    return v.textValue();
  }

  /** An error naming the input line and the field: {@code --input: line 3: reward: must be ...}. */
  static MemLoopException fail(int line, String field, String problem) {
    return new MemLoopException(MemLoopException.Reason.INVALID_ARGUMENT, field,
        "--input: line " + line + ": " + field + ": " + problem);
  }

  /** The reward to apply: the given one, else rewardMax for success and rewardMin for failure. */
  double rewardWithin(double rewardMin, double rewardMax) {
    if (reward != null) {
      return reward;
    }
    return Boolean.TRUE.equals(success) ? rewardMax : rewardMin;
  }

  Outcome outcomeOr(double appliedReward) {
    if (outcome != null) {
      return outcome;
    }
    if (success != null) {
      return success ? Outcome.SUCCESS : Outcome.FAILURE;
    }
    return Outcome.ofReward(appliedReward);
  }
}
