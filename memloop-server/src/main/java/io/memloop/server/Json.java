package io.memloop.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.memloop.Candidate;
import io.memloop.EmbeddingModel;
import io.memloop.Memory;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import io.memloop.Stats;
import io.memloop.UtilityChange;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The JSON shapes MemLoop prints and serves (CLI {@code --json}, HTTP API, MCP tools): one place, so
 * every transport shows a memory, a retrieval and a reward the same way.
 */
public final class Json {
  public static final ObjectMapper MAPPER =
      com.fasterxml.jackson.databind.json.JsonMapper.builder(com.fasterxml.jackson.core.JsonFactory.builder()
              // requests run on virtual threads: a thread-local buffer pool would allocate fresh buffers every time
              .recyclerPool(com.fasterxml.jackson.core.util.JsonRecyclerPools.sharedConcurrentDequePool())
              .build())
          .disable(SerializationFeature.INDENT_OUTPUT)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          // {"reward": 1, "reward": -1} is an error, not "the last one wins".
          .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          // a 384-d embedding is 384 decimal numbers per request: parse them with FastDoubleParser (exact, faster)
          .enable(com.fasterxml.jackson.core.StreamReadFeature.USE_FAST_DOUBLE_PARSER)
          .build();

  private Json() {}

  /** {@code value} as UTF-8 JSON. */
  public static byte[] bytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }

  /**
   * A memory without its embedding (384 floats help nobody reading the output). {@code parts} follows {@code
   * experience}: the experiences its text holds, newest first ({@link Memory#parts()}): one for a plain memory,
   * each attempt of a merged failure note, so that a client need not know the separator.
   */
  public static Map<String, Object> memory(Memory m) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("id", m.id());
    o.put("namespace", m.namespace());
    o.put("intentId", m.intentId());
    o.put("intent", m.intentText());
    o.put("experience", m.experience());
    o.put("parts", m.parts());
    o.put("outcome", m.outcome().name().toLowerCase(java.util.Locale.ROOT));
    o.put("q", m.q());
    o.put("visits", m.visits());
    o.put("createdAt", m.createdAt().toString());
    o.put("updatedAt", m.updatedAt().toString());
    return o;
  }

  public static Map<String, Object> candidate(Candidate c) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("id", c.memoryId());
    o.put("similarity", c.similarity());
    o.put("q", c.q());
    o.put("score", c.score());
    o.put("selected", c.selected());
    o.put("probability", c.probability());
    return o;
  }

  public static Map<String, Object> retrieval(Retrieval r) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("retrievalId", r.id());
    o.put("namespace", r.namespace());
    o.put("candidates", r.candidates().stream().map(Json::candidate).toList());
    o.put("selected", r.selected().stream().map(Json::memory).toList());
    return o;
  }

  public static List<Map<String, Object>> changes(List<UtilityChange> changes) {
    return changes.stream().map(c -> {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("id", c.memoryId());
      o.put("qBefore", c.qBefore());
      o.put("qAfter", c.qAfter());
      o.put("visits", c.visits());
      return o;
    }).toList();
  }

  public static Map<String, Object> reward(RewardResult r) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("retrievalId", r.retrievalId());
    o.put("reward", r.reward());
    if (Double.compare(r.target(), r.reward()) != 0) {
      o.put("target", r.target());
    }
    o.put("updated", changes(r.changes()));
    return o;
  }

  public static Map<String, Object> stats(Stats s) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("namespace", s.namespace());
    o.put("memories", s.memories());
    o.put("intents", s.intents());
    o.put("pendingRetrievals", s.pendingRetrievals());
    o.put("successes", s.successes());
    o.put("failures", s.failures());
    o.put("meanQ", s.meanQ());
    o.put("minQ", s.minQ());
    o.put("maxQ", s.maxQ());
    o.put("totalVisits", s.totalVisits());
    o.put("model", model(s.model()));
    return o;
  }

  /** {@code {"id", "dimension"}} of an embedding model; null when the store records none. */
  public static @Nullable Map<String, Object> model(@Nullable EmbeddingModel m) {
    if (m == null) {
      return null;
    }
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("id", m.id());
    o.put("dimension", m.dimension());
    return o;
  }
}
