package io.memloop.history;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memloop.Candidate;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.MemLoopException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Exports an event log as datasets for weight-level RL and fine-tuning (docs/export.md). A <b>rollout</b> is a
 * rewarded retrieval: the task, the experiences the agent was given (a prompt built from them), what the agent
 * did (the experience it remembered for that retrieval: linked by {@code retrievalId}, or else the next
 * experience remembered in the namespace under the same task text) and the reward. Rollouts of one task text in
 * one namespace form a <b>group</b>; within it, a rollout is <b>guided</b> when it was given experiences and
 * <b>free</b> when it was given none (or the agent reported using none), which pairs experience-guided with
 * experience-free rollouts of the same task as Complementary RL's groups do.
 *
 * <p>Formats: {@code rollouts} (everything, one line per rollout, with the group-normalised advantage
 * GRPO computes), {@code sft} (successful rollouts as TRL prompt-completion), {@code kto} (every rollout with a
 * completion, labelled by success: TRL's unpaired preference format), {@code dpo} (a success and a failure of
 * the same prompt: TRL's preference pairs), {@code grpo} (one line per distinct prompt with the logged rewards,
 * for a trainer that samples its own completions).
 */
public final class RlExport {
  /** Prompt layout version, written on every line. */
  public static final String PROMPT_VERSION = "memloop-prompt-v1";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  /** Why a rollout is left out of the formats that train on what the agent did. */
  private static final String NO_COMPLETION = "no experience was remembered for the retrieval (nothing the agent did to train on)";

  /** What can be exported. */
  public enum Format {
    ROLLOUTS, SFT, KTO, DPO, GRPO;

    /** Parses a format name (case-insensitive). */
    public static Format parse(String s) {
      for (Format f : values()) {
        if (f.name().equalsIgnoreCase(s)) {
          return f;
        }
      }
      throw MemLoopException.invalid("--format", "'" + s + "' is not one of rollouts, sft, kto, dpo, grpo");
    }
  }

  /** What an export wrote, and what it had to leave out (each with how many and why). */
  public record Result(int rewardedRetrievals, int rollouts, int groups, int records, Map<String, Integer> leftOut,
      List<EventLogImport.Skipped> skipped) {}

  /** An experience shown to the agent. */
  private record Shown(String id, String text, String outcome) {}

  private static final class Rollout {
    final String ns;
    final String retrievalId;
    final String at;
    final @Nullable String task;
    final List<String> selected;
    /** Selected merged failure note → how many of its attempts (the newest) were shown; absent: all. */
    final Map<String, Integer> parts;
    final double probability;
    final MemLoopConfig config;
    double reward;
    boolean rewarded;
    @Nullable List<String> used;
    @Nullable String completion;
    boolean linked;
    /** The texts of the selected memories as they were when retrieved (a later edit does not change what was shown). */
    final Map<String, Shown> seen = new java.util.HashMap<>();

    Rollout(String ns, String retrievalId, String at, @Nullable String task, List<String> selected,
        Map<String, Integer> parts, double probability, MemLoopConfig config) {
      this.ns = ns;
      this.retrievalId = retrievalId;
      this.at = at;
      this.task = task;
      this.selected = selected;
      this.parts = parts;
      this.probability = probability;
      this.config = config;
    }

    boolean success() {
      return reward > (config.rewardMin() + config.rewardMax()) / 2;
    }

    /** The memories whose experiences the prompt carries: those the agent used when it said, else all shown. */
    List<String> injected() {
      return used != null ? used : selected;
    }
  }

  private final Map<String, MemLoopConfig> configs = new LinkedHashMap<>();
  private final Map<String, Shown> memories = new LinkedHashMap<>(); // ns/memoryId
  private final Map<String, Rollout> byRetrieval = new LinkedHashMap<>(); // ns/retrievalId, log order
  /** ns + "\n" + task → rewarded rollouts still waiting for what the agent did, oldest first. */
  private final Map<String, List<Rollout>> awaitingCompletion = new LinkedHashMap<>();
  private final List<EventLogImport.Skipped> skipped = new ArrayList<>();
  private final MemLoopConfig fallback;
  private int rewardsWithoutRetrieval;

  private RlExport(MemLoopConfig fallback) {
    this.fallback = fallback;
  }

  /**
   * Reads the log at {@code input} and writes {@code format} to {@code output} (replaced atomically).
   *
   * @param strict refuse to write anything when a line of the log is malformed
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --input} when the log holds no rewarded retrieval or
   *     (strict) a malformed line, naming {@code --output} when it cannot be written
   */
  public static Result run(Path input, Format format, Path output, boolean strict, MemLoopConfig fallback) {
    RlExport x = new RlExport(fallback);
    EventLogFiles.read(input, x.skipped, (file, line, e) -> x.accept(e));
    if (strict && !x.skipped.isEmpty()) {
      throw MemLoopException.invalid("--input", x.skipped.size() + " malformed line(s), nothing exported (--strict); first: "
          + x.skipped.getFirst());
    }
    return x.write(input, format, output);
  }

  private @Nullable String accept(JsonNode e) {
    String ns = e.get("ns").asText();
    return switch (e.get("type").asText()) {
      case "config" -> EventLogFiles.recordConfig(configs, ns, e);
      case "retrieval" -> retrieval(ns, e);
      case "reward" -> reward(ns, e);
      case "remember" -> remember(ns, e);
      case "edit" -> edit(ns, e);
      default -> null;
    };
  }

  private @Nullable String retrieval(String ns, JsonNode e) {
    if (!e.path("retrievalId").isTextual() || !e.path("candidates").isArray() || !e.path("selected").isArray()) {
      return "retrievalId, candidates or selected: missing or mistyped";
    }
    List<Candidate> pool = new ArrayList<>();
    for (JsonNode c : e.get("candidates")) {
      if (!c.path("id").isTextual() || !c.path("selected").isBoolean() || !c.path("probability").isNumber()) {
        return "candidates[]: each needs id, selected and probability";
      }
      pool.add(new Candidate(c.get("id").asText(), c.path("similarity").asDouble(), c.path("q").asDouble(),
          c.path("score").asDouble(), c.get("selected").asBoolean(), c.get("probability").asDouble()));
    }
    List<String> selected = new ArrayList<>();
    for (JsonNode s : e.get("selected")) {
      if (!s.isTextual()) {
        return "selected[]: not a string";
      }
      selected.add(s.asText());
    }
    Map<String, Integer> parts = new LinkedHashMap<>();
    JsonNode p = e.get("parts");
    if (p != null) {
      if (!p.isObject()) {
        return "parts: not an object of memory id → attempts shown";
      }
      for (var f : p.properties()) {
        JsonNode n = f.getValue();
        if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < 1) {
          return "parts." + f.getKey() + ": not a positive whole number";
        }
        parts.put(f.getKey(), n.asInt());
      }
    }
    MemLoopConfig config = configs.getOrDefault(ns, fallback);
    String task = e.path("intent").isTextual() && !e.get("intent").asText().isBlank() ? e.get("intent").asText() : null;
    Rollout rollout = new Rollout(ns, e.get("retrievalId").asText(),
        e.get("at").asText(), task, List.copyOf(selected), Map.copyOf(parts), OffPolicyEvaluation.propensity(pool, config),
        config);
    for (String id : selected) {
      Shown m = memories.get(ns + "/" + id);
      if (m != null) {
        rollout.seen.put(id, m);
      }
    }
    byRetrieval.put(ns + "/" + e.get("retrievalId").asText(), rollout);
    return null;
  }

  private @Nullable String reward(String ns, JsonNode e) {
    if (!e.path("retrievalId").isTextual() || !e.path("reward").isNumber() || !Double.isFinite(e.get("reward").asDouble())) {
      return "retrievalId or reward: missing or mistyped";
    }
    Rollout r = byRetrieval.get(ns + "/" + e.get("retrievalId").asText());
    if (r == null) {
      rewardsWithoutRetrieval++; // its retrieval was logged before this log started
      return null;
    }
    if (r.rewarded) {
      return "retrievalId: '" + r.retrievalId + "' was already rewarded";
    }
    JsonNode used = e.get("usedMemoryIds");
    if (used != null && used.isArray()) {
      List<String> ids = new ArrayList<>();
      used.forEach(u -> ids.add(u.asText()));
      r.used = List.copyOf(ids);
    }
    r.reward = e.get("reward").asDouble();
    r.rewarded = true;
    if (r.task != null && r.completion == null) {
      awaitingCompletion.computeIfAbsent(ns + "\n" + r.task, k -> new ArrayList<>()).add(r);
    }
    return null;
  }

  private @Nullable String remember(String ns, JsonNode e) {
    if (!e.path("memoryId").isTextual() || !e.path("experience").isTextual() || !e.path("outcome").isTextual()) {
      return "memoryId, experience or outcome: missing or not a string";
    }
    String experience = e.get("experience").asText();
    memories.putIfAbsent(ns + "/" + e.get("memoryId").asText(),
        new Shown(e.get("memoryId").asText(), experience, e.get("outcome").asText()));
    Rollout r = null;
    if (e.path("retrievalId").isTextual()) {
      r = byRetrieval.get(ns + "/" + e.get("retrievalId").asText());
      if (r != null && r.completion == null) {
        r.linked = true;
        List<Rollout> waiting = r.task == null ? null : awaitingCompletion.get(ns + "\n" + r.task);
        if (waiting != null) {
          waiting.remove(r);
        }
      } else {
        r = null;
      }
    } else if (e.path("intent").isTextual()) {
      List<Rollout> waiting = awaitingCompletion.get(ns + "\n" + e.get("intent").asText());
      if (waiting != null && !waiting.isEmpty()) {
        r = waiting.removeFirst();
      }
    }
    if (r != null) {
      r.completion = experience;
    }
    return null;
  }

  /** An edited memory: retrievals from now on show the new text; earlier ones keep what they showed. */
  private @Nullable String edit(String ns, JsonNode e) {
    if (!e.path("memoryId").isTextual() || !e.path("experience").isTextual()) {
      return "memoryId or experience: missing or not a string";
    }
    memories.computeIfPresent(ns + "/" + e.get("memoryId").asText(),
        (k, old) -> new Shown(old.id(), e.get("experience").asText(), old.outcome()));
    return null;
  }

  private Result write(Path input, Format format, Path output) {
    Map<String, Integer> leftOut = new LinkedHashMap<>();
    if (rewardsWithoutRetrieval > 0) {
      leftOut.put("the reward's retrieval is not in the log (logged before it started)", rewardsWithoutRetrieval);
    }
    Map<String, List<Rollout>> groups = new LinkedHashMap<>();
    int rewarded = 0;
    for (Rollout r : byRetrieval.values()) {
      if (!r.rewarded) {
        continue;
      }
      rewarded++;
      if (r.task == null) {
        leftOut.merge("the retrieval was given by embedding only (no task text)", 1, Integer::sum);
        continue;
      }
      if (!r.injected().stream().allMatch(id -> r.seen.containsKey(id) || memories.containsKey(r.ns + "/" + id))) {
        leftOut.merge("an experience shown was remembered before the log started (its text is not in the log)", 1, Integer::sum);
        continue;
      }
      groups.computeIfAbsent(r.ns + "\n" + r.task, k -> new ArrayList<>()).add(r);
    }
    if (rewarded == 0) {
      throw MemLoopException.invalid("--input", input + " holds no retrieval with its reward: nothing to export");
    }
    Path tmp = output.resolveSibling(output.getFileName() + ".tmp");
    int records;
    int rollouts = groups.values().stream().mapToInt(List::size).sum();
    try (OutputStream os = Files.newOutputStream(tmp);
        JsonGenerator g = MAPPER.getFactory().createGenerator(os)) {
      g.setRootValueSeparator(new com.fasterxml.jackson.core.io.SerializedString("\n"));
      records = switch (format) {
        case ROLLOUTS -> rollouts(g, groups);
        case SFT, KTO -> pointwise(g, groups, format, leftOut);
        case DPO -> pairs(g, groups, leftOut);
        case GRPO -> prompts(g, groups);
      };
      g.writeRaw('\n');
    } catch (IOException e) {
      throw MemLoopException.invalid("--output", "cannot write " + output + ": " + e.getMessage());
    }
    try {
      Files.move(tmp, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw MemLoopException.invalid("--output", "cannot write " + output + ": " + e.getMessage());
    }
    return new Result(rewarded, rollouts, groups.size(), records, leftOut, List.copyOf(skipped));
  }

  private int rollouts(JsonGenerator g, Map<String, List<Rollout>> groups) throws IOException {
    int n = 0;
    for (List<Rollout> group : groups.values()) {
      double[] adv = advantages(group);
      for (int i = 0; i < group.size(); i++) {
        Rollout r = group.get(i);
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("group", groupId(r));
        o.put("groupSize", group.size());
        o.put("ns", r.ns);
        o.put("retrievalId", r.retrievalId);
        o.put("at", r.at);
        o.put("task", r.task);
        o.put("guided", guided(r));
        o.put("experiences", shown(r).stream().map(s -> ordered("id", s.id(), "outcome", s.outcome(), "text", s.text())).toList());
        o.put("usedMemoryIds", r.used);
        o.put("prompt", prompt(r));
        o.put("completion", r.completion == null ? null : completion(r));
        o.put("completionSource", r.completion == null ? null : r.linked ? "retrievalId" : "same-task");
        o.put("reward", r.reward);
        o.put("success", r.success());
        o.put("advantage", adv[i]);
        o.put("slateProbability", r.probability);
        o.put("promptVersion", PROMPT_VERSION);
        g.writeObject(o);
        n++;
      }
    }
    return n;
  }

  private int pointwise(JsonGenerator g, Map<String, List<Rollout>> groups, Format format, Map<String, Integer> leftOut)
      throws IOException {
    int n = 0;
    for (List<Rollout> group : groups.values()) {
      for (Rollout r : group) {
        if (r.completion == null) {
          leftOut.merge(NO_COMPLETION, 1, Integer::sum);
          continue;
        }
        if (format == Format.SFT && !r.success()) {
          continue;
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("prompt", prompt(r));
        o.put("completion", completion(r));
        if (format == Format.KTO) {
          o.put("label", r.success());
        }
        o.put("group", groupId(r));
        o.put("guided", guided(r));
        o.put("reward", r.reward);
        g.writeObject(o);
        n++;
      }
    }
    return n;
  }

  private int pairs(JsonGenerator g, Map<String, List<Rollout>> groups, Map<String, Integer> leftOut) throws IOException {
    int n = 0;
    for (List<Rollout> group : groups.values()) {
      Map<List<Shown>, List<Rollout>> wins = new LinkedHashMap<>();
      Map<List<Shown>, List<Rollout>> losses = new LinkedHashMap<>();
      for (Rollout r : group) {
        if (r.completion == null) {
          leftOut.merge(NO_COMPLETION, 1, Integer::sum);
          continue;
        }
        (r.success() ? wins : losses).computeIfAbsent(promptKey(r), k -> new ArrayList<>()).add(r); // same prompt
      }
      for (var w : wins.entrySet()) {
        List<Rollout> l = losses.getOrDefault(w.getKey(), List.of());
        for (int i = 0; i < Math.min(w.getValue().size(), l.size()); i++) {
          Rollout win = w.getValue().get(i);
          Map<String, Object> o = new LinkedHashMap<>();
          o.put("prompt", prompt(win));
          o.put("chosen", completion(win));
          o.put("rejected", completion(l.get(i)));
          o.put("group", groupId(win));
          o.put("guided", guided(win));
          g.writeObject(o);
          n++;
        }
      }
    }
    return n;
  }

  private int prompts(JsonGenerator g, Map<String, List<Rollout>> groups) throws IOException {
    int n = 0;
    for (List<Rollout> group : groups.values()) {
      Map<List<Shown>, List<Rollout>> byPrompt = new LinkedHashMap<>();
      for (Rollout r : group) {
        byPrompt.computeIfAbsent(promptKey(r), k -> new ArrayList<>()).add(r);
      }
      for (List<Rollout> same : byPrompt.values()) {
        Rollout first = same.getFirst();
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("prompt", prompt(first));
        o.put("group", groupId(first));
        o.put("task", first.task);
        o.put("guided", guided(first));
        o.put("loggedRewards", same.stream().map(r -> r.reward).toList());
        o.put("loggedSuccessRate", same.stream().filter(Rollout::success).count() / (double) same.size());
        g.writeObject(o);
        n++;
      }
    }
    return n;
  }

  private static boolean guided(Rollout r) {
    return !r.injected().isEmpty();
  }

  /** What makes two rollouts' prompts the same (within a group, whose task is one): the experiences as shown. */
  private List<Shown> promptKey(Rollout r) {
    return guided(r) ? shown(r) : List.of();
  }

  /** The experiences the prompt carries, as the agent saw them: a merged note cut to the attempts it was shown. */
  private List<Shown> shown(Rollout r) {
    return r.injected().stream().map(id -> {
      Shown m = r.seen.getOrDefault(id, memories.get(r.ns + "/" + id));
      Integer n = r.parts.get(id);
      return n == null ? m : new Shown(m.id(), Memory.joinParts(Memory.parts(m.text()), n), m.outcome());
    }).toList();
  }

  /** The conversation the agent saw: its task, and the experiences it was given (docs/export.md). */
  private List<Map<String, String>> prompt(Rollout r) {
    StringBuilder s = new StringBuilder(r.task);
    List<Shown> shown = shown(r);
    if (!shown.isEmpty()) {
      s.append("\n\nExperiences from similar past tasks (use what applies):");
      for (int i = 0; i < shown.size(); i++) {
        s.append("\n[").append(i + 1).append("] (").append(shown.get(i).outcome()).append(") ").append(shown.get(i).text());
      }
    }
    return List.of(ordered("role", "user", "content", s.toString()));
  }

  private static List<Map<String, String>> completion(Rollout r) {
    return List.of(ordered("role", "assistant", "content", r.completion));
  }

  /** A JSON object with its fields in the given order (key, value, key, value, ...). */
  private static Map<String, String> ordered(String... keysAndValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return m;
  }

  /** GRPO's group-normalised advantage: (r − mean) / std over the group; 0 for a group of one or of equal rewards. */
  private static double[] advantages(List<Rollout> group) {
    int n = group.size();
    double mean = group.stream().mapToDouble(r -> r.reward).average().orElse(0);
    double var = group.stream().mapToDouble(r -> (r.reward - mean) * (r.reward - mean)).sum() / Math.max(1, n - 1);
    double std = Math.sqrt(var);
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = n < 2 || std < 1e-12 ? 0 : (group.get(i).reward - mean) / std;
    }
    return a;
  }

  private static String groupId(Rollout r) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest((r.ns + "\n" + r.task).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a required algorithm", e);
    }
  }
}
