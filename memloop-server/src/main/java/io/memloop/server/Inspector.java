package io.memloop.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.Explanation;
import io.memloop.Learned;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Vectors;
import io.memloop.policy.Explore;
import io.memloop.store.IntentMatch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The inspector's routes (the page at {@code /ui} and any client): read-only views of a namespace on an already
 * authorised namespace, in the JSON shapes documented in {@code openapi.json}, ids shown as the client's tokens.
 * Activity, events and histories come from the server's {@link ServerActivity}, when it has one.
 */
final class Inspector {
  static final Set<String> EVENTS_PARAMETERS = Set.of("after", "limit");
  static final Set<String> NEIGHBOURS_PARAMETERS = Set.of("limit");
  static final int MAX_EVENTS = 500;
  static final int MAX_NEIGHBOURS = 50;

  private final Service service;
  private final MemLoop loop;
  private final @Nullable ServerActivity activity;
  private final ReportCache reports;
  private final Instant since;

  Inspector(Service service, MemLoop loop, @Nullable ServerActivity activity, ReportCache reports) {
    this.service = service;
    this.loop = loop;
    this.activity = activity;
    this.reports = reports;
    this.since = activity != null ? activity.since() : Instant.now();
  }

  /** {@code GET .../overview}: stats, configuration, what per-task learning learned, per-minute activity. */
  Map<String, Object> overview(String ns, Map<String, List<String>> parameters) {
    Service.parameters(parameters, Set.of());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("namespace", ns);
    out.put("stats", service.stats(ns));
    out.put("config", service.config(ns));
    out.put("learned", learned(loop.learned(ns)));
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("since", since.toString());
    a.put("bucketSeconds", ServerActivity.BUCKET_SECONDS);
    List<Map<String, Object>> buckets = new ArrayList<>();
    if (activity != null) {
      for (ServerActivity.Bucket b : activity.buckets(ns)) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("start", b.start().toString());
        o.put("retrievals", b.retrievals());
        o.put("rewards", b.rewards());
        o.put("successes", b.successes());
        o.put("rewardSum", b.rewardSum());
        o.put("remembered", b.remembered());
        o.put("edited", b.edited());
        o.put("forgotten", b.forgotten());
        buckets.add(o);
      }
    }
    a.put("buckets", buckets);
    out.put("activity", a);
    return out;
  }

  static Map<String, Object> learned(Learned l) {
    Map<String, Object> exploration = arms("explored", l.explored(), l.exploredSuccessRate(), "notExplored",
        l.notExplored(), l.notExploredSuccessRate());
    exploration.put("probability", l.explorationProbability());
    Map<String, Object> depth = arms("whole", l.wholeNotes(), l.wholeSuccessRate(), "shortened", l.shortenedNotes(),
        l.shortenedSuccessRate());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("taskLearning", l.taskLearning());
    out.put("exploration", exploration);
    out.put("noteDepth", depth);
    out.put("recurrence", l.recurrence());
    Map<String, Object> blocks = new LinkedHashMap<>();
    blocks.put("weights", l.blockWeights());
    blocks.put("updates", l.blockUpdates());
    out.put("similarityBlocks", blocks);
    Map<String, Object> directions = new LinkedHashMap<>();
    directions.put("pairs", l.similarityPairs());
    directions.put("fittedAt", l.similarityFittedAt());
    directions.put("scales", l.directionScales());
    directions.put("varianceShare", l.directionsVarianceShare());
    out.put("similarityDirections", directions);
    Map<String, Object> text = new LinkedHashMap<>();
    text.put("weights", l.textWeights());
    text.put("updates", l.textUpdates());
    out.put("textSimilarity", text);
    Map<String, Object> doubt = arms("demoted", l.doubtDemoted(), l.doubtDemotedSuccessRate(), "kept", l.doubtKept(),
        l.doubtKeptSuccessRate());
    doubt.put("probability", l.doubtProbability());
    out.put("doubt", doubt);
    Map<String, Object> use = arms("learned", l.directionsLearned(), l.directionsLearnedSuccessRate(), "cosine",
        l.directionsCosine(), l.directionsCosineSuccessRate());
    use.put("probability", l.directionsProbability());
    out.put("directionsUse", use);
    Map<String, Object> alone = arms("alone", l.textAlone(), l.textAloneSuccessRate(), "mixed", l.textMixed(),
        l.textMixedSuccessRate());
    alone.put("probability", l.textAloneProbability());
    out.put("textAlone", alone);
    return out;
  }

  /**
   * The record of one of the namespace's two-armed draws (exploring, note depth, doubt): each arm's episodes under its
   * name and their success rate under its name + {@code SuccessRate}, first arm first.
   */
  private static Map<String, Object> arms(String first, long firstEpisodes, @Nullable Double firstRate, String second,
      long secondEpisodes, @Nullable Double secondRate) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(first, firstEpisodes);
    out.put(first + "SuccessRate", firstRate);
    out.put(second, secondEpisodes);
    out.put(second + "SuccessRate", secondRate);
    return out;
  }

  /** {@code GET .../events?after=&limit=}: the namespace's events since the server started, oldest first. */
  Map<String, Object> events(String ns, Map<String, List<String>> parameters) {
    Map<String, String> p = Service.parameters(parameters, EVENTS_PARAMETERS);
    Long after = Requests.longParam(p.get("after"), "after");
    int limit = Requests.intParam(p.get("limit"), "limit", 1, MAX_EVENTS, 100);
    List<ServerActivity.Event> events = activity == null ? List.of() : activity.events(ns, after, limit);
    Service.IdScope scope = service.scope(ns);
    List<Map<String, Object>> out = new ArrayList<>(events.size());
    for (ServerActivity.Event e : events) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("seq", e.seq());
      o.put("at", e.at().toString());
      o.put("type", e.type().json());
      if (e.retrievalId() != null) {
        o.put("retrievalId", scope.show(e.retrievalId()));
      }
      if (e.memoryIds() != null) {
        o.put("memoryIds", e.memoryIds().stream().map(scope::show).toList());
      }
      if (!Double.isNaN(e.reward())) {
        o.put("reward", e.reward());
      }
      if (e.success() != null) {
        o.put("success", e.success());
      }
      if (e.intent() != null) {
        o.put("intent", e.intent());
      }
      if (e.memoryId() != null) {
        o.put("memoryId", scope.show(e.memoryId()));
      }
      out.add(o);
    }
    long next = !events.isEmpty() ? events.getLast().seq() : after != null ? after : activity == null ? 0 : activity.lastSeq(ns);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("events", out);
    body.put("next", next);
    return body;
  }

  /** {@code GET .../memories/{id}/history}: the memory, its utility over time and the retrievals that pooled it. */
  Map<String, Object> history(String ns, String memoryId, Map<String, List<String>> parameters) {
    Service.parameters(parameters, Set.of());
    Service.IdScope scope = service.scope(ns);
    String internal = scope.read(Service.id(memoryId, "memoryId"), 'm');
    Memory m = loop.get(ns, internal).orElseThrow(() -> Service.notFound(ns, memoryId));
    var kept = activity == null ? java.util.Optional.<ServerActivity.History>empty() : activity.history(ns, internal);
    List<Map<String, Object>> q = new ArrayList<>();
    List<Map<String, Object>> retrievals = new ArrayList<>();
    if (kept.isPresent()) {
      for (ServerActivity.QPoint p : kept.get().q()) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("at", p.at().toString());
        o.put("q", p.q());
        o.put("retrievalId", scope.show(p.retrievalId()));
        o.put("reward", p.reward());
        q.add(o);
      }
      for (ServerActivity.Seen s : kept.get().retrievals()) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("retrievalId", scope.show(s.retrievalId()));
        o.put("at", s.at().toString());
        o.put("intent", s.intent());
        o.put("similarity", s.similarity());
        o.put("score", s.score());
        o.put("selected", s.selected());
        o.put("probability", s.probability());
        o.put("reward", Double.isNaN(s.reward()) ? null : s.reward());
        o.put("success", s.success());
        retrievals.add(o);
      }
    }
    if (q.isEmpty()) { // nothing recorded since the server started: the utility as stored now
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("at", m.updatedAt().toString());
      o.put("q", m.q());
      o.put("retrievalId", null);
      o.put("reward", null);
      q.add(o);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("memory", scope.showMemory(Json.memory(m)));
    out.put("q", q);
    out.put("retrievals", retrievals);
    out.put("complete", activity != null && kept.map(ServerActivity.History::complete).orElseGet(() -> !activity.droppedAny(ns)));
    out.put("since", since.toString());
    return out;
  }

  /**
   * {@code GET .../memories/{id}/neighbours?limit=}: memories of the intents nearest the memory's own intent
   * (recalled with its intent vector), its own intent group left out, by the cosine of their intents to its intent,
   * highest first (ties: the store's recall order).
   */
  Map<String, Object> neighbours(String ns, String memoryId, Map<String, List<String>> parameters) {
    Map<String, String> p = Service.parameters(parameters, NEIGHBOURS_PARAMETERS);
    int limit = Requests.intParam(p.get("limit"), "limit", 1, MAX_NEIGHBOURS, 10);
    Service.IdScope scope = service.scope(ns);
    String internal = scope.read(Service.id(memoryId, "memoryId"), 'm');
    Memory m = loop.get(ns, internal).orElseThrow(() -> Service.notFound(ns, memoryId));
    record Near(Memory memory, double similarity) {}
    List<Near> near = new ArrayList<>();
    for (IntentMatch match : loop.store().recall(ns, m.intentEmbedding(), limit + 1, -1)) {
      if (match.intentId().equals(m.intentId())) {
        continue;
      }
      for (Memory other : match.memories()) {
        if (!other.id().equals(m.id())) {
          near.add(new Near(other, Vectors.dot(m.intentEmbedding(), other.intentEmbedding())));
        }
      }
    }
    near.sort(Comparator.comparingDouble(Near::similarity).reversed()); // stable: recall order within ties
    List<Map<String, Object>> out = new ArrayList<>();
    for (Near n : near.subList(0, Math.min(limit, near.size()))) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("memory", scope.showMemory(Json.memory(n.memory())));
      o.put("similarity", n.similarity());
      out.add(o);
    }
    return Map.of("neighbours", out);
  }

  /** {@code POST .../explain}: why a retrieval for the intent would select what it selects; changes nothing. */
  Map<String, Object> explain(String ns, ObjectNode body) {
    Requests.object(body, "body", Service.RETRIEVE_FIELDS);
    Explanation x = loop.explain(ns, service.intent(body));
    Service.IdScope scope = service.scope(ns);
    MemLoopConfig c = x.config();
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("k1", c.k1());
    config.put("k2", c.k2());
    config.put("similarityThreshold", c.similarityThreshold());
    config.put("lambda", c.lambda());
    config.put("qMin", c.qMin());
    config.put("exploration", c.exploration().name());
    config.put("epsilon", Explore.epsilon(c));
    config.put("tieBreak", c.tieBreak().name());
    config.put("taskLearning", c.taskLearning().perTask());
    List<Map<String, Object>> candidates = new ArrayList<>(x.candidates().size());
    for (Explanation.Entry e : x.candidates()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("rank", e.rank());
      o.put("memory", e.memory() == null ? Map.of("id", scope.show(e.memoryId())) : scope.showMemory(Json.memory(e.memory())));
      o.put("similarity", e.similarity());
      o.put("q", e.q());
      o.put("normSimilarity", e.normSimilarity());
      o.put("normQ", e.normQ());
      o.put("score", e.score());
      o.put("eligible", e.eligible());
      o.put("dropped", e.dropped());
      o.put("tier", e.tier());
      o.put("greedy", e.greedy());
      o.put("probability", e.probability());
      o.put("shown", e.shown());
      candidates.add(o);
    }
    List<Map<String, Object>> steps = x.steps().stream().map(s -> {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("step", s.step());
      o.put("detail", s.detail());
      return o;
    }).toList();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("config", config);
    out.put("recalled", Map.of("intents", x.recalledIntents(), "memories", x.recalledMemories()));
    out.put("candidates", candidates);
    out.put("steps", steps);
    out.put("shown", x.shown().stream().map(scope::show).toList());
    return out;
  }

  /** {@code GET .../report}: the decision report of the server's event log for the namespace (cached a minute). */
  Map<String, Object> report(String ns, Map<String, List<String>> parameters) {
    Service.parameters(parameters, Set.of());
    return reports.report(ns);
  }
}
