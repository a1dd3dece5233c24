package io.memloop.history;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.Candidate;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.store.Annotations;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.UtilityUpdate;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Bootstraps a store from an event log (docs/event-log.md): every remembered experience that was not
 * forgotten, grouped by intent as the target store groups them, with the utility learned offline from the
 * logged rewards (each logged reward replayed through the Monte-Carlo rule {@code Q ← Q + α(r − Q)} with the
 * namespace's logged α, visits counted), and each namespace's logged configuration.
 *
 * <p>The whole input is read and validated before anything is written. A malformed line (not JSON, an
 * unknown version or type, a missing or mistyped field) is reported with its file, line and reason: with
 * {@code strict} the import is refused and nothing is written; otherwise the rest is imported and the
 * result lists what was skipped and why. Never a silent drop.
 */
public final class EventLogImport {
  private static final int EMBED_BATCH = 64;
  private static final int UTILITIES_PER_RECORD = 1000;
  private static final int INSERT_BATCH = 1_000; // the store checks each memory of a batch against the batch: keep it small

  /**
   * A line, record or run that was not imported, and why: {@code kind} says which sort of reason (the import's
   * summary counts them by kind), {@code reason} says it for this one.
   */
  public record Skipped(String file, int line, String reason, Kind kind) {
    /** Why something was skipped, as the import's summary counts it. */
    public enum Kind {
      /** Not readable as what it should be (not JSON, a missing or mistyped field, no user message, ...). */
      MALFORMED("malformed"),
      /** An intent text over {@link io.memloop.Checks#MAX_INTENT_CHARS}, the bound every way in enforces. */
      INTENT_TOO_LONG("intentTooLong");

      private final String label;

      Kind(String label) {
        this.label = label;
      }

      /** Its name in JSON output. */
      public String label() {
        return label;
      }
    }

    /** A malformed line, record or run. */
    public Skipped(String file, int line, String reason) {
      this(file, line, reason, Kind.MALFORMED);
    }

    /** As JSON output shows it. */
    public Map<String, Object> json() {
      return Map.of("file", file, "line", line, "reason", reason, "kind", kind.label());
    }

    @Override
    public String toString() {
      return file + ":" + line + ": " + reason;
    }
  }

  /** What an import did. */
  public record Result(int events, int memories, int namespaces, int rewardsReplayed, int rewardsForUnknownMemories,
      int forgotten, List<Skipped> skipped) {
    /** How many were skipped of each kind, every kind listed (0 when none), in {@link Skipped.Kind} order. */
    public Map<Skipped.Kind, Integer> skippedByKind() {
      Map<Skipped.Kind, Integer> n = new java.util.EnumMap<>(Skipped.Kind.class);
      for (Skipped.Kind k : Skipped.Kind.values()) {
        n.put(k, 0);
      }
      skipped.forEach(s -> n.merge(s.kind(), 1, Integer::sum));
      return n;
    }
  }

  private static final class Planned {
    final String ns;
    final String intent;
    String experience;
    final Outcome outcome;
    double q;
    long visits;

    Planned(String ns, String intent, String experience, Outcome outcome, double q) {
      this.ns = ns;
      this.intent = intent;
      this.experience = experience;
      this.outcome = outcome;
      this.q = q;
    }
  }

  private final Map<String, MemLoopConfig> configs = new LinkedHashMap<>();
  /** By namespace + "/" + logged memory id, in log order. */
  private final Map<String, Planned> memories = new LinkedHashMap<>();
  private final List<Skipped> skipped = new ArrayList<>();
  private int events;
  private int rewardsReplayed;
  private int rewardsForUnknown;
  private int forgotten;

  private EventLogImport() {}

  /**
   * Reads {@code input} (a file, or a directory whose {@code *.jsonl} files are read in name order) and
   * writes what it holds through {@code loop}.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --input} for a strict import of malformed
   *     input, or input that cannot be read
   */
  public static Result run(Path input, boolean strict, MemLoop loop) {
    EventLogImport im = new EventLogImport();
    im.readAll(input, loop.config());
    if (strict && !im.skipped.isEmpty()) {
      throw MemLoopException.invalid("--input", im.refusal("line(s)") + ", nothing imported (--strict); first: "
          + im.skipped.getFirst());
    }
    return im.write(loop);
  }

  /**
   * Imports agent runs from OpenTelemetry GenAI traces ({@link OtlpTraces}) into {@code namespace}: each run
   * becomes a memory under its first user message, with its tool calls and answer as the experience and the
   * outcome the trace gives (its evaluation or MemLoop's attributes; a run with only a score is a success when
   * the score is above the middle of the namespace's reward range) and the initial utility of that outcome.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --input} for a strict import of malformed input,
   *     input that cannot be read, or input with no agent run
   */
  public static Result runOtlp(Path input, boolean strict, MemLoop loop, String namespace) {
    io.memloop.Checks.requireNamespace(namespace);
    EventLogImport im = new EventLogImport();
    List<OtlpTraces.Episode> runs = OtlpTraces.read(input, im.skipped);
    if (strict && !im.skipped.isEmpty()) {
      throw MemLoopException.invalid("--input", im.refusal("record(s) or run(s)") + ", nothing imported "
          + "(--strict); first: " + im.skipped.getFirst());
    }
    if (runs.isEmpty()) {
      throw MemLoopException.invalid("--input", input + " holds no agent run that can be imported"
          + (im.skipped.isEmpty() ? "" : " (" + im.skipped.size() + " skipped; first: " + im.skipped.getFirst() + ")"));
    }
    MemLoopConfig config = loop.config(namespace);
    double mid = (config.rewardMin() + config.rewardMax()) / 2;
    for (OtlpTraces.Episode run : runs) {
      Outcome outcome = run.outcome();
      if (outcome == Outcome.UNKNOWN && run.reward() != null) {
        outcome = run.reward() > mid ? Outcome.SUCCESS : Outcome.FAILURE;
      }
      im.memories.put(namespace + "/" + run.traceId() + "/" + im.memories.size(),
          new Planned(namespace, run.intent(), run.experience(), outcome, config.initialQ(outcome)));
      im.events++;
    }
    return im.write(loop);
  }

  /** "2 malformed line(s) and 1 whose intent is over the limit of 8192 characters", for a strict refusal. */
  private String refusal(String what) {
    long tooLong = skipped.stream().filter(s -> s.kind() == Skipped.Kind.INTENT_TOO_LONG).count();
    long malformed = skipped.size() - tooLong;
    String over = "whose intent is over the limit of " + io.memloop.Checks.MAX_INTENT_CHARS + " characters";
    return malformed == 0 ? tooLong + " " + what + " " + over
        : malformed + " malformed " + what + (tooLong == 0 ? "" : " and " + tooLong + " " + over);
  }

  private void readAll(Path input, MemLoopConfig fallback) {
    EventLogFiles.read(input, skipped, (file, line, e) -> {
      if (e.get("type").asText().equals("remember") && e.path("intent").isTextual()) {
        String tooLong = io.memloop.Checks.intentLengthProblem(e.get("intent").asText()).orElse(null);
        if (tooLong != null) { // what remember would refuse: skipped, its rewards and forget then name an unknown memory
          skipped.add(new Skipped(file, line, "intent: " + tooLong, Skipped.Kind.INTENT_TOO_LONG));
          return null;
        }
      }
      String problem = accept(e, fallback);
      if (problem == null) {
        events++;
      }
      return problem;
    });
  }

  /** Applies one well-formed event to the plan; the reason when a type-specific field is malformed. */
  private @Nullable String accept(JsonNode e, MemLoopConfig fallback) {
    String ns = e.get("ns").asText();
    return switch (e.get("type").asText()) {
      case "config" -> EventLogFiles.recordConfig(configs, ns, e);
      case "remember" -> remember(ns, e);
      case "reward" -> reward(ns, e, fallback);
      case "edit" -> text(e, "memoryId") == null || text(e, "experience") == null ? "memoryId or experience: missing or not a string"
          : edit(ns, e.get("memoryId").asText(), e.get("experience").asText());
      case "forget" -> text(e, "memoryId") == null ? "memoryId: missing or not a string" : forget(ns, e.get("memoryId").asText());
      default -> e.path("retrievalId").isTextual() && e.path("candidates").isArray() ? null : "retrieval: retrievalId or candidates missing";
    };
  }

  private @Nullable String remember(String ns, JsonNode e) {
    for (String f : List.of("memoryId", "intent", "experience", "outcome")) {
      if (text(e, f) == null) {
        return f + ": missing or not a string";
      }
    }
    if (!e.path("q").isNumber() || !Double.isFinite(e.get("q").asDouble())) {
      return "q: missing or not a finite number";
    }
    Outcome outcome;
    try {
      outcome = Outcome.valueOf(e.get("outcome").asText().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException ex) {
      return "outcome: '" + e.get("outcome").asText() + "' is not success, failure or unknown";
    }
    if (e.get("experience").asText().isBlank()) {
      return "experience: empty";
    }
    if (e.path("duplicate").asBoolean(false)) {
      return null; // the memory it duplicates is imported from its own line
    }
    if (e.get("intent").asText().isBlank()) {
      return "intent: empty (the memory was given by embedding only; the log holds no vector to import it with)";
    }
    memories.put(ns + "/" + e.get("memoryId").asText(),
        new Planned(ns, e.get("intent").asText(), e.get("experience").asText(), outcome, e.get("q").asDouble()));
    return null;
  }

  private @Nullable String reward(String ns, JsonNode e, MemLoopConfig fallback) {
    if (!e.path("reward").isNumber() || !Double.isFinite(e.get("reward").asDouble())) {
      return "reward: missing or not a finite number";
    }
    if (e.has("target") && (!e.get("target").isNumber() || !Double.isFinite(e.get("target").asDouble()))) {
      return "target: not a finite number";
    }
    if (!e.path("updated").isArray()) {
      return "updated: missing or not an array";
    }
    for (JsonNode u : e.get("updated")) {
      if (text(u, "id") == null) {
        return "updated[].id: missing or not a string";
      }
    }
    // a Bellman/TD reward moved the utilities towards its target, not its reward
    double r = e.has("target") ? e.get("target").asDouble() : e.get("reward").asDouble();
    io.memloop.UtilityRule rule = io.memloop.UtilityRule.of(configs.getOrDefault(ns, fallback));
    for (JsonNode u : e.get("updated")) {
      Planned p = memories.get(ns + "/" + u.get("id").asText());
      if (p == null) {
        rewardsForUnknown++;
        continue;
      }
      p.q = rule.update(p.q, r);
      p.visits++;
      rewardsReplayed++;
    }
    return null;
  }

  /** The memory is imported with its edited text (one remembered before the log started is unknown: ignored). */
  private @Nullable String edit(String ns, String memoryId, String experience) {
    if (experience.isBlank()) {
      return "experience: empty";
    }
    Planned p = memories.get(ns + "/" + memoryId);
    if (p != null) {
      p.experience = experience;
    }
    return null;
  }

  private @Nullable String forget(String ns, String memoryId) {
    if (memories.remove(ns + "/" + memoryId) != null) {
      forgotten++;
    }
    return null;
  }

  private static @Nullable String text(JsonNode e, String field) {
    JsonNode v = e.get(field);
    return v != null && v.isTextual() ? v.asText() : null;
  }

  private Result write(MemLoop loop) {
    MemoryStore store = loop.store();
    List<Planned> planned = new ArrayList<>(memories.values());
    List<float[]> embeddings = new ArrayList<>(planned.size());
    for (int i = 0; i < planned.size(); i += EMBED_BATCH) {
      List<String> texts = planned.subList(i, Math.min(planned.size(), i + EMBED_BATCH)).stream().map(p -> p.intent).toList();
      embeddings.addAll(loop.embedAll(texts));
    }
    Set<String> namespaces = new java.util.LinkedHashSet<>();
    planned.forEach(p -> namespaces.add(p.ns));
    configs.keySet().forEach(namespaces::add);
    for (String ns : namespaces) {
      MemLoopConfig c = configs.get(ns);
      if (c != null) {
        loop.configure(ns, c);
      }
    }
    Instant now = Instant.now();
    Map<String, List<Map.Entry<String, Utility>>> learned = new LinkedHashMap<>();
    // one batch per namespace run of up to INSERT_BATCH memories: a durable store logs and syncs it once
    int next = 0;
    while (next < planned.size()) {
      int i = next;
      String ns = planned.get(i).ns;
      int end = i;
      List<NewMemory> batch = new ArrayList<>();
      while (end < planned.size() && planned.get(end).ns.equals(ns) && batch.size() < INSERT_BATCH) {
        Planned p = planned.get(end);
        batch.add(new NewMemory(p.ns, p.intent, io.memloop.Vectors.normalized(embeddings.get(end), "intent"),
            p.experience, p.outcome, p.q, now));
        end++;
      }
      // through the engine, which logs a remember per memory when this process keeps an event log
      List<Memory> stored = loop.importAll(ns, batch);
      for (int j = 0; j < stored.size(); j++) {
        Planned p = planned.get(i + j);
        if (p.visits > 0) {
          learned.computeIfAbsent(p.ns, k -> new ArrayList<>()).add(Map.entry(stored.get(j).id(), new Utility(p.q, p.visits)));
        }
      }
      next = end;
    }
    // visits go in through the store's own reward path: one synthetic retrieval per batch of memories
    for (var e : learned.entrySet()) {
      List<Map.Entry<String, Utility>> all = e.getValue();
      for (int from = 0; from < all.size(); from += UTILITIES_PER_RECORD) {
        List<Map.Entry<String, Utility>> batch = all.subList(from, Math.min(all.size(), from + UTILITIES_PER_RECORD));
        Map<String, Utility> byId = new LinkedHashMap<>();
        List<Candidate> candidates = new ArrayList<>();
        for (var b : batch) {
          byId.put(b.getKey(), b.getValue());
          candidates.add(new Candidate(b.getKey(), 1.0, 0.0, 0.0, true, 1.0));
        }
        var record = store.saveRetrieval(new RetrievalRecordDraft(e.getKey(), now, now.plus(Duration.ofHours(1)), candidates, Annotations.EMPTY));
        store.applyReward(e.getKey(), record.id(), now, (UtilityUpdate) (id, u) -> byId.get(id));
      }
    }
    return new Result(events, planned.size(), namespaces.size(), rewardsReplayed, rewardsForUnknown, forgotten, List.copyOf(skipped));
  }
}
