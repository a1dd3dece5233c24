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
import io.memloop.store.MemoryStore;
import org.jspecify.annotations.Nullable;

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
  private final @Nullable IdCodec ids;

  /** @param ids how ids are shown to clients; null: the store's own ids (the local, single-user stdio transport) */
  Service(MemLoop loop, ServerOptions options, Metrics metrics, @Nullable IdCodec ids) {
    this.loop = loop;
    this.options = options;
    this.metrics = metrics;
    this.ids = ids;
  }

  MemLoop engine() {
    return loop;
  }

  Map<String, Object> retrieve(String ns, ObjectNode body) {
    Requests.object(body, "body", RETRIEVE_FIELDS);
    Intent intent = intent(body);
    Retrieval r = loop.retrieve(ns, intent);
    metrics.retrieved(ns, r.selected().size());
    IdScope scope = new IdScope(ns);
    Map<String, Object> out = Json.retrieval(r);
    out.put("retrievalId", scope.show((String) out.get("retrievalId")));
    for (Object c : (List<?>) out.get("candidates")) {
      scope.showId(c, "id");
    }
    for (Object m : (List<?>) out.get("selected")) {
      scope.showMemory(m);
    }
    return out;
  }

  Map<String, Object> reward(String ns, ObjectNode body) {
    Requests.object(body, "body", REWARD_FIELDS);
    IdScope scope = new IdScope(ns);
    String retrievalId = scope.read(id(Requests.text(body, "retrievalId", 64), "retrievalId"), 'r');
    double reward = Requests.number(body, "reward");
    List<String> given = Requests.optionalStrings(body, "usedMemoryIds", MAX_USED, 64);
    List<String> used = given == null ? null : given.stream().map(u -> scope.read(id(u, "usedMemoryIds"), 'm')).toList();
    String next = Requests.optionalText(body, "nextRetrievalId", 64);
    String nextId = next == null ? null : scope.read(id(next, "nextRetrievalId"), 'r');
    RewardResult result = scope.call(() -> loop.reward(ns, retrievalId, reward, used, nextId));
    metrics.rewarded(ns, reward);
    Map<String, Object> out = Json.reward(result);
    out.put("retrievalId", scope.show((String) out.get("retrievalId")));
    for (Object c : (List<?>) out.get("updated")) {
      scope.showId(c, "id");
    }
    return out;
  }

  Map<String, Object> remember(String ns, ObjectNode body) {
    Requests.object(body, "body", REMEMBER_FIELDS);
    Intent intent = intent(body);
    String experience = Requests.text(body, "experience", options.maxExperienceChars());
    Outcome outcome = outcome(Requests.text(body, "outcome", 16));
    String retrievalId = Requests.optionalText(body, "retrievalId", 64);
    IdScope scope = new IdScope(ns);
    String internal = retrievalId == null ? null : scope.read(id(retrievalId, "retrievalId"), 'r');
    Memory m = scope.call(() -> loop.remember(ns, intent, experience, outcome, internal));
    metrics.remembered(ns);
    return scope.showMemory(Json.memory(m));
  }

  Map<String, Object> get(String ns, String memoryId) {
    IdScope scope = new IdScope(ns);
    String internal = scope.read(id(memoryId, "memoryId"), 'm');
    return loop.get(ns, internal).map(m -> scope.showMemory(Json.memory(m))).orElseThrow(() -> notFound(ns, memoryId));
  }

  void forget(String ns, String memoryId) {
    IdScope scope = new IdScope(ns);
    String internal = scope.read(id(memoryId, "memoryId"), 'm');
    scope.call(() -> {
      loop.forget(ns, internal);
      return null;
    });
  }

  /**
   * A page of memories, oldest first: at most {@code limit}, starting after memory {@code after} (the
   * previous page's {@code next}). The store's memory ids grow with time ({@code m<sequence>}), so pages stay
   * stable while memories are added or deleted.
   */
  Map<String, Object> list(String ns, int limit, @Nullable String after) {
    IdScope scope = new IdScope(ns);
    String from = null;
    if (after != null) {
      from = ids == null ? after : ids.decode(ns, after, 'm').orElse(null);
      if (from == null || MemoryStore.sequenceOf(from) < 0) {
        throw MemLoopException.invalid("after", "must be a memory id (the previous page's 'next'), got '" + Requests.abbreviate(after) + "'");
      }
    }
    List<io.memloop.Memory> page = loop.store().page(ns, from, limit + 1); // one more tells whether there is a next page
    boolean more = page.size() > limit;
    List<Map<String, Object>> shown = page.subList(0, Math.min(limit, page.size())).stream()
        .map(m -> scope.showMemory(Json.memory(m))).toList();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("namespace", ns);
    out.put("memories", shown);
    out.put("next", more ? scope.show(page.get(limit - 1).id()) : null);
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

  /**
   * The ids of one request, between what the client sees and what the store holds. A token that does not
   * decode (malformed, forged, another namespace's) stands for an id the store cannot hold, so the engine
   * answers exactly as for any id that does not exist; the engine's messages are shown with the client's ids.
   */
  private final class IdScope {
    private final String ns;
    private final Map<String, String> shownAs = new LinkedHashMap<>();
    private long unknown = Long.MAX_VALUE;

    IdScope(String ns) {
      this.ns = ns;
    }

    /** The store's id for the client's {@code token} of {@code kind}. */
    String read(String token, char kind) {
      if (ids == null) {
        return token;
      }
      String internal = ids.decode(ns, token, kind).orElseGet(() -> kind + Long.toString(unknown--)); // never handed out
      shownAs.put(internal, token);
      return internal;
    }

    /** The client's token for the store's {@code internal} id. */
    String show(String internal) {
      if (ids == null) {
        return internal;
      }
      return shownAs.computeIfAbsent(internal, i -> ids.encode(ns, i));
    }

    void showId(Object map, String field) {
      @SuppressWarnings("unchecked")
      Map<String, Object> m = (Map<String, Object>) map;
      if (m.get(field) instanceof String s) {
        m.put(field, show(s));
      }
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> showMemory(Object memory) {
      showId(memory, "id");
      showId(memory, "intentId");
      return (Map<String, Object>) memory;
    }

    /** Runs an engine call, its errors' messages with the client's ids instead of the store's. */
    <T> T call(java.util.function.Supplier<T> engineCall) {
      try {
        return engineCall.get();
      } catch (MemLoopException e) {
        if (ids == null || shownAs.isEmpty()) {
          throw e;
        }
        String message = e.getMessage();
        for (var entry : shownAs.entrySet()) {
          message = message.replaceAll("(?<![A-Za-z0-9_-])" + Pattern.quote(entry.getKey()) + "(?![A-Za-z0-9_-])",
              java.util.regex.Matcher.quoteReplacement(entry.getValue()));
        }
        throw new MemLoopException(e.reason(), e.field(), message);
      }
    }
  }

  private static MemLoopException notFound(String ns, String memoryId) {
    return new MemLoopException(MemLoopException.Reason.NOT_FOUND, "memoryId",
        "memoryId: no memory '" + memoryId + "' in namespace '" + ns + "'");
  }
}
