package io.memloop.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The operations every transport serves (HTTP routes, MCP tools), on an already authorised namespace:
 * each reads a JSON object strictly ({@link Requests}), calls the engine and returns the JSON shape of
 * {@link Json}. Nothing is written before the whole request has been validated.
 */
final class Service {
  private static final Set<String> RETRIEVE_FIELDS = Set.of("intent", "embedding");
  private static final Set<String> REWARD_FIELDS = Set.of("retrievalId", "reward", "usedMemoryIds", "nextRetrievalId");
  private static final Set<String> REMEMBER_FIELDS = Set.of("intent", "embedding", "experience", "outcome", "retrievalId");
  private static final Set<String> CONFIG_FIELDS = Set.of("preset", "knobs");
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  static final int MAX_USED = 64;
  static final int MAX_PAGE = 1000;

  private final MemLoop loop;
  private final ServerOptions options;
  private final Metrics metrics;

  Service(MemLoop loop, ServerOptions options, Metrics metrics) {
    this.loop = loop;
    this.options = options;
    this.metrics = metrics;
  }

  MemLoop engine() {
    return loop;
  }

  Map<String, Object> retrieve(String ns, ObjectNode body) {
    Requests.object(body, "body", RETRIEVE_FIELDS);
    Intent intent = intent(body);
    Retrieval r = loop.retrieve(ns, intent);
    metrics.retrieved(ns, r.selected().size());
    return Json.retrieval(r);
  }

  Map<String, Object> reward(String ns, ObjectNode body) {
    Requests.object(body, "body", REWARD_FIELDS);
    String retrievalId = id(Requests.text(body, "retrievalId", 64), "retrievalId");
    double reward = Requests.number(body, "reward");
    List<String> used = Requests.optionalStrings(body, "usedMemoryIds", MAX_USED, 64);
    String next = Requests.optionalText(body, "nextRetrievalId", 64);
    RewardResult result = loop.reward(ns, retrievalId, reward, used, next == null ? null : id(next, "nextRetrievalId"));
    metrics.rewarded(ns, reward);
    return Json.reward(result);
  }

  Map<String, Object> remember(String ns, ObjectNode body) {
    Requests.object(body, "body", REMEMBER_FIELDS);
    Intent intent = intent(body);
    String experience = Requests.text(body, "experience", options.maxExperienceChars());
    Outcome outcome = outcome(Requests.text(body, "outcome", 16));
    String retrievalId = Requests.optionalText(body, "retrievalId", 64);
    Memory m = loop.remember(ns, intent, experience, outcome, retrievalId == null ? null : id(retrievalId, "retrievalId"));
    metrics.remembered(ns);
    return Json.memory(m);
  }

  Map<String, Object> get(String ns, String memoryId) {
    id(memoryId, "memoryId");
    return loop.get(ns, memoryId).map(Json::memory).orElseThrow(() -> notFound(ns, memoryId));
  }

  void forget(String ns, String memoryId) {
    id(memoryId, "memoryId");
    loop.forget(ns, memoryId);
  }

  /**
   * A page of memories, oldest first: at most {@code limit}, starting after memory {@code after} (the
   * previous page's {@code next}). Memory ids grow with time ({@code m<sequence>}), so pages stay stable
   * while memories are added or deleted.
   */
  Map<String, Object> list(String ns, int limit, String after) {
    if (after != null) {
      sequence(after, "after");
    }
    List<io.memloop.Memory> page = loop.store().page(ns, after, limit + 1); // one more tells whether there is a next page
    boolean more = page.size() > limit;
    List<Map<String, Object>> shown = page.subList(0, Math.min(limit, page.size())).stream().map(Json::memory).toList();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("namespace", ns);
    out.put("memories", shown);
    out.put("next", more ? page.get(limit - 1).id() : null);
    return out;
  }

  Map<String, Object> stats(String ns) {
    return Json.stats(loop.stats(ns));
  }

  Map<String, Object> config(String ns) {
    var recorded = loop.recordedConfig(ns);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("namespace", ns);
    out.put("recorded", recorded.isPresent());
    out.put("knobs", recorded.orElseGet(() -> loop.plannedConfig(ns)).toSettings());
    return out;
  }

  Map<String, Object> configure(String ns, ObjectNode body) {
    Requests.object(body, "body", CONFIG_FIELDS);
    String preset = Requests.optionalText(body, "preset", 32);
    MemLoopConfig.Builder b = MemLoopConfig.preset(preset == null ? Preset.DEFAULT : presetOf(preset)).toBuilder();
    JsonNode knobs = body.get("knobs");
    if (knobs != null && !knobs.isNull()) {
      Requests.object(knobs, "knobs", knobNames());
      var it = knobs.fields();
      while (it.hasNext()) {
        var e = it.next();
        JsonNode v = e.getValue();
        if (!(v.isTextual() || v.isNumber() || v.isBoolean())) {
          throw MemLoopException.invalid("knobs." + e.getKey(), "must be a string, number or boolean, got " + Requests.kind(v));
        }
        try {
          b.set(e.getKey(), v.asText());
        } catch (MemLoopException ex) {
          throw new MemLoopException(MemLoopException.Reason.INVALID_ARGUMENT, "knobs." + e.getKey(),
              "knobs." + e.getKey() + ": " + ex.getMessage());
        }
      }
    }
    MemLoopConfig config;
    try {
      config = b.build();
    } catch (MemLoopException ex) {
      String field = knobNames().contains(ex.field()) ? "knobs." + ex.field() : "knobs";
      throw new MemLoopException(MemLoopException.Reason.INVALID_ARGUMENT, field, field + ": " + ex.getMessage());
    }
    loop.configure(ns, config);
    return config(ns);
  }

  private static Set<String> knobNames() {
    return MemLoopConfig.preset(Preset.DEFAULT).toSettings().keySet();
  }

  private static Preset presetOf(String name) {
    try {
      return Preset.parse(name);
    } catch (MemLoopException e) {
      throw MemLoopException.invalid("preset", e.getMessage());
    }
  }

  private Intent intent(ObjectNode body) {
    String text = Requests.optionalText(body, "intent", options.maxIntentChars());
    float[] embedding = Requests.optionalVector(body, "embedding", options.maxEmbeddingLength());
    if (text == null && embedding == null) {
      throw MemLoopException.invalid("intent", "is required (the task in words), unless an embedding is given");
    }
    return Intent.of(text, embedding);
  }

  private static Outcome outcome(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "success" -> Outcome.SUCCESS;
      case "failure" -> Outcome.FAILURE;
      case "unknown" -> Outcome.UNKNOWN;
      default -> throw MemLoopException.invalid("outcome", "must be success, failure or unknown, got '" + Requests.abbreviate(s) + "'");
    };
  }

  private static String id(String id, String field) {
    if (id == null || !ID.matcher(id).matches()) {
      throw MemLoopException.invalid(field, "must be 1-64 letters, digits, '_' or '-', got '" + Requests.abbreviate(String.valueOf(id)) + "'");
    }
    return id;
  }

  private static long sequence(String id, String field) {
    long seq = io.memloop.store.MemoryStore.sequenceOf(id);
    if (seq < 0) {
      throw MemLoopException.invalid(field, "must be a memory id such as 'm42', got '" + Requests.abbreviate(id) + "'");
    }
    return seq;
  }

  private static MemLoopException notFound(String ns, String memoryId) {
    return new MemLoopException(MemLoopException.Reason.NOT_FOUND, "memoryId",
        "memoryId: no memory '" + memoryId + "' in namespace '" + ns + "'");
  }
}
