package io.memloop.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.EpisodeEnd;
import io.memloop.Intent;
import io.memloop.Knob;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.MemoryPage;
import io.memloop.MemoryQuery;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import io.memloop.store.MemoryStore;
import org.jspecify.annotations.Nullable;

/**
 * The operations every transport serves (HTTP routes, MCP tools), on an already authorised namespace:
 * each reads a JSON object strictly ({@link Requests}), calls the engine and returns the JSON shape of
 * {@link Json}. Nothing is written before the whole request has been validated.
 */
final class Service {
  static final Set<String> RETRIEVE_FIELDS = Set.of("intent", "embedding");
  private static final Set<String> REWARD_FIELDS = Set.of("retrievalId", "reward", "usedMemoryIds", "nextRetrievalId");
  private static final Set<String> REMEMBER_FIELDS = Set.of("intent", "embedding", "experience", "outcome", "retrievalId");
  private static final Set<String> CONFIG_FIELDS = Set.of("preset", "knobs");
  private static final Set<String> EDIT_FIELDS = Set.of("experience");
  private static final Set<String> EPISODE_FIELDS = Set.of(
      "retrievalId", "reward", "usedMemoryIds", "nextRetrievalId", "intent", "embedding", "experience", "outcome");
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  static final int MAX_USED = 64;
  static final int MAX_PAGE = 1000;

  private final MemLoop loop;
  private final ServerOptions options;
  private final Metrics metrics;
  private final @Nullable IdCodec ids;
  private final Inspector inspector;

  /** @param ids how ids are shown to clients; null: the store's own ids (the local, single-user stdio transport) */
  Service(MemLoop loop, ServerOptions options, Metrics metrics, @Nullable IdCodec ids) {
    this.loop = loop;
    this.options = options;
    this.metrics = metrics;
    this.ids = ids;
    this.inspector = new Inspector(this, loop, options.activity(), new ReportCache(options.reports(), java.time.InstantSource.system()));
  }

  /** The inspector's read-only routes (overview, events, history, neighbours, explain, report). */
  Inspector inspector() {
    return inspector;
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
    Outcome outcome = outcome(Requests.text(body, "outcome", 16), "outcome");
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

  /** The query parameters of {@code GET /memories}: filters, sort and page (docs in openapi.json). */
  static final Set<String> LIST_PARAMETERS = Set.of("limit", "after", "text", "outcome", "minQ", "maxQ", "minVisits",
      "maxVisits", "createdFrom", "createdTo", "updatedFrom", "updatedTo", "sort", "order");

  /**
   * A page of the memories that match the filters of {@code parameters} (each a single value; an unknown
   * parameter is refused, so a misspelt filter never silently lists everything), sorted as asked, at most
   * {@code limit}, after the previous page's {@code next}. Cursors are sealed for the namespace.
   */
  Map<String, Object> list(String ns, Map<String, List<String>> parameters) {
    for (var e : parameters.entrySet()) {
      if (!LIST_PARAMETERS.contains(e.getKey())) {
        throw MemLoopException.invalid(Requests.abbreviate(e.getKey()),
            "is not a parameter of this route (one of " + String.join(", ", new java.util.TreeSet<>(LIST_PARAMETERS)) + ")");
      }
      if (e.getValue().size() > 1) {
        throw MemLoopException.invalid(e.getKey(), "is given " + e.getValue().size() + " times; give it once");
      }
    }
    java.util.function.Function<String, @Nullable String> p = name -> {
      List<String> v = parameters.get(name);
      return v == null || v.isEmpty() ? null : v.getFirst();
    };
    IdScope scope = new IdScope(ns);
    MemoryQuery.Builder q = MemoryQuery.builder()
        .limit(Requests.intParam(p.apply("limit"), "limit", 1, MAX_PAGE, 100));
    String text = p.apply("text");
    if (text != null) {
      if (text.length() > options.maxIntentChars()) {
        throw MemLoopException.invalid("text", "is over " + options.maxIntentChars() + " characters");
      }
      q.text(text);
    }
    String outcomes = p.apply("outcome");
    if (outcomes != null) {
      java.util.EnumSet<Outcome> set = java.util.EnumSet.noneOf(Outcome.class);
      for (String o : outcomes.split(",", -1)) {
        set.add(outcome(o.strip(), "outcome"));
      }
      q.outcomes(set);
    }
    Double minQ = Requests.doubleParam(p.apply("minQ"), "minQ");
    Double maxQ = Requests.doubleParam(p.apply("maxQ"), "maxQ");
    if (minQ != null) {
      q.minQ(minQ);
    }
    if (maxQ != null) {
      q.maxQ(maxQ);
    }
    Long minVisits = Requests.longParam(p.apply("minVisits"), "minVisits");
    Long maxVisits = Requests.longParam(p.apply("maxVisits"), "maxVisits");
    if (minVisits != null) {
      q.minVisits(minVisits);
    }
    if (maxVisits != null) {
      q.maxVisits(maxVisits);
    }
    q.createdFrom(Requests.instantParam(p.apply("createdFrom"), "createdFrom"));
    q.createdTo(Requests.instantParam(p.apply("createdTo"), "createdTo"));
    q.updatedFrom(Requests.instantParam(p.apply("updatedFrom"), "updatedFrom"));
    q.updatedTo(Requests.instantParam(p.apply("updatedTo"), "updatedTo"));
    String sort = p.apply("sort");
    if (sort != null) {
      q.sort(MemoryQuery.Sort.parse(sort, "sort"));
    }
    String order = p.apply("order");
    if (order != null) {
      q.descending(switch (order) {
        case "asc" -> false;
        case "desc" -> true;
        default -> throw MemLoopException.invalid("order", "must be asc or desc, got '" + Requests.abbreviate(order) + "'");
      });
    }
    String after = p.apply("after");
    if (after != null) {
      String cursor = ids == null ? after : ids.openCursor(ns, after).orElseThrow(() -> MemLoopException.invalid("after",
          "is not a cursor of this namespace (pass the previous page's 'next' unchanged), got '" + Requests.abbreviate(after) + "'"));
      q.after(cursor);
    }
    MemoryPage page = loop.list(ns, q.build());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("namespace", ns);
    out.put("memories", page.memories().stream().map(m -> scope.showMemory(Json.memory(m))).toList());
    out.put("next", page.next() == null ? null : ids == null ? page.next() : ids.sealCursor(ns, page.next()));
    out.put("total", page.total());
    return out;
  }

  /** Replaces a memory's experience text in place: its utility, visits and history stay. */
  Map<String, Object> edit(String ns, String memoryId, ObjectNode body) {
    Requests.object(body, "body", EDIT_FIELDS);
    String experience = Requests.text(body, "experience", options.maxExperienceChars());
    IdScope scope = new IdScope(ns);
    String internal = scope.read(id(memoryId, "memoryId"), 'm');
    Memory m = scope.call(() -> loop.edit(ns, internal, experience));
    return scope.showMemory(Json.memory(m));
  }

  /**
   * Ends an episode in one call: the reward of its retrieval and the experience it taught, one durable write
   * ({@link MemLoop#endEpisode}). Everything is validated before anything is written.
   */
  Map<String, Object> endEpisode(String ns, ObjectNode body) {
    Requests.object(body, "body", EPISODE_FIELDS);
    IdScope scope = new IdScope(ns);
    String retrievalId = scope.read(id(Requests.text(body, "retrievalId", 64), "retrievalId"), 'r');
    double reward = Requests.number(body, "reward");
    List<String> given = Requests.optionalStrings(body, "usedMemoryIds", MAX_USED, 64);
    List<String> used = given == null ? null : given.stream().map(u -> scope.read(id(u, "usedMemoryIds"), 'm')).toList();
    String next = Requests.optionalText(body, "nextRetrievalId", 64);
    String nextId = next == null ? null : scope.read(id(next, "nextRetrievalId"), 'r');
    Intent intent = intent(body);
    String experience = Requests.text(body, "experience", options.maxExperienceChars());
    Outcome outcome = outcome(Requests.text(body, "outcome", 16), "outcome");
    EpisodeEnd end = scope.call(() -> loop.endEpisode(ns, retrievalId, reward, used, nextId, intent, experience, outcome));
    metrics.rewarded(ns, reward);
    metrics.remembered(ns);
    Map<String, Object> rewardOut = Json.reward(end.reward());
    rewardOut.put("retrievalId", scope.show((String) rewardOut.get("retrievalId")));
    for (Object c : (List<?>) rewardOut.get("updated")) {
      scope.showId(c, "id");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("reward", rewardOut);
    out.put("memory", scope.showMemory(Json.memory(end.memory())));
    return out;
  }

  IdScope scope(String ns) {
    return new IdScope(ns);
  }

  /** Refuses query parameters other than {@code allowed}, and any given more than once; each one's single value. */
  static Map<String, String> parameters(Map<String, List<String>> parameters, Set<String> allowed) {
    Map<String, String> out = new LinkedHashMap<>();
    for (var e : parameters.entrySet()) {
      if (!allowed.contains(e.getKey())) {
        throw MemLoopException.invalid(Requests.abbreviate(e.getKey()), allowed.isEmpty() ? "is not a parameter of this route (it takes none)"
            : "is not a parameter of this route (one of " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
      }
      if (e.getValue().size() > 1) {
        throw MemLoopException.invalid(e.getKey(), "is given " + e.getValue().size() + " times; give it once");
      }
      if (!e.getValue().isEmpty()) {
        out.put(e.getKey(), e.getValue().getFirst());
      }
    }
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
      Requests.object(knobs, "knobs", KNOB_NAMES);
      var it = knobs.fields();
      while (it.hasNext()) {
        var e = it.next();
        JsonNode v = e.getValue();
        if (!(v.isTextual() || v.isNumber() || v.isBoolean())) {
          throw MemLoopException.invalid("knobs." + e.getKey(), "must be a string, number or boolean, got " + Requests.kind(v));
        }
        try {
          b.set(e.getKey(), v.asText()); // the knob table checks the type and bounds, naming the knob
        } catch (MemLoopException ex) {
          throw inKnobs(ex);
        }
      }
    }
    MemLoopConfig config;
    try {
      config = b.build(); // conflicts between knobs, whatever their order in the body, naming both
    } catch (MemLoopException ex) {
      throw inKnobs(ex);
    }
    loop.configure(ns, config);
    return config(ns);
  }

  /** Knob names a config request takes: the {@link Knob} table's (what {@code GET .../config} shows). */
  private static final Set<String> KNOB_NAMES =
      Arrays.stream(Knob.values()).map(Knob::key).collect(Collectors.toCollection(LinkedHashSet::new));

  /** {@code ex} (naming a knob) as the field of the request: {@code knobs.k1: must be in [1, 10000], got -3}. */
  private static MemLoopException inKnobs(MemLoopException ex) {
    String knob = ex.field();
    String message = String.valueOf(ex.getMessage());
    String problem = message.startsWith(knob + ": ") ? message.substring(knob.length() + 2) : message;
    String field = KNOB_NAMES.contains(knob) ? "knobs." + knob : "knobs";
    return new MemLoopException(MemLoopException.Reason.INVALID_ARGUMENT, field, field + ": " + problem);
  }

  private static Preset presetOf(String name) {
    try {
      return Preset.parse(name);
    } catch (MemLoopException e) {
      throw MemLoopException.invalid("preset", e.getMessage());
    }
  }

  Intent intent(ObjectNode body) {
    String text = Requests.optionalText(body, "intent", options.maxIntentChars());
    float[] embedding = Requests.optionalVector(body, "embedding", options.maxEmbeddingLength());
    if (text == null && embedding == null) {
      throw MemLoopException.invalid("intent", "is required (the task in words), unless an embedding is given");
    }
    return Intent.of(text, embedding);
  }

  private static Outcome outcome(String s, String field) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "success" -> Outcome.SUCCESS;
      case "failure" -> Outcome.FAILURE;
      case "unknown" -> Outcome.UNKNOWN;
      default -> throw MemLoopException.invalid(field, "must be success, failure or unknown, got '" + Requests.abbreviate(s) + "'");
    };
  }

  static String id(String id, String field) {
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
  final class IdScope {
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

  static MemLoopException notFound(String ns, String memoryId) {
    return new MemLoopException(MemLoopException.Reason.NOT_FOUND, "memoryId",
        "memoryId: no memory '" + memoryId + "' in namespace '" + ns + "'");
  }
}
