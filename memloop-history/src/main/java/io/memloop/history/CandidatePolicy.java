package io.memloop.history;

import io.memloop.Candidate;
import io.memloop.MemLoopConfig;
import io.memloop.OfflineLearning;
import io.memloop.OfflineSelection;
import io.memloop.policy.TaskNote;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a candidate configuration chooses at each logged decision, fed in log order: a configuration without state
 * learned along the way chooses greedily from the logged pool ({@link OfflineSelection}); one with per-task
 * learning has its ledger replayed along the log ({@link OfflineLearning}), so that at each decision it chooses
 * with what it would have learned from the log's earlier rewards, and may choose among several slates by its own
 * draws. One instance per candidate and evaluation; not thread-safe.
 */
final class CandidatePolicy {
  private final MemLoopConfig config;
  private final Map<String, OfflineLearning> learners = new HashMap<>(); // per namespace
  private boolean recallComplete = true;

  CandidatePolicy(MemLoopConfig config) {
    this.config = config;
  }

  boolean replaysLearning() {
    return OfflineLearning.learnsPerTask(config);
  }

  /**
   * The candidate's slates at {@code d}, with their probabilities (summing to 1), chosen from what its Phase A would
   * have recalled of the logged pool ({@link OfflineSelection#recall}); {@link #recallComplete} then says whether
   * the log held all of that.
   *
   * @param replay whether to replay its per-task ledger (else it chooses greedily, as without one)
   */
  List<OfflineLearning.Choice> choose(OffPolicyEvaluation.Decision d, Map<String, Map<String, OfflineLearning.Known>> memories,
      boolean replay) {
    if (!replay) {
      OfflineSelection.Recalled r = OfflineSelection.recall(d.pool(), config, config.k1(), d.config());
      recallComplete = r.complete();
      return List.of(new OfflineLearning.Choice(OfflineSelection.select(r.pool(), config), TaskNote.NO_DRAW, 1));
    }
    OfflineLearning learner = learners.computeIfAbsent(d.ns(), ns -> new OfflineLearning(config));
    List<OfflineLearning.Choice> choices = learner.choose(d.ns(), d.task(), d.pool(), memories.getOrDefault(d.ns(), Map.of()),
        d.config());
    recallComplete = learner.recallComplete();
    return choices;
  }

  /** Whether the log held every memory the candidate would have recalled at the last {@link #choose}. */
  boolean recallComplete() {
    return recallComplete;
  }

  /** Feeds the logged outcome of {@code d}, the decision {@link #choose} was last asked about. */
  void learn(OffPolicyEvaluation.Decision d, Map<String, Map<String, OfflineLearning.Known>> memories) {
    if (replaysLearning()) {
      learners.get(d.ns()).learn(d.shown(), d.noteDepth(), d.reward(), d.used(),
          memories.getOrDefault(d.ns(), Map.of()));
    }
  }

  /** Whether {@code choice} is the logged action of {@code d}: the same memories, and the same note depth if drawn. */
  static boolean isLogged(OfflineLearning.Choice choice, OffPolicyEvaluation.Decision d) {
    return choice.slate().size() == d.logged().size() && d.logged().containsAll(choice.slate())
        && (choice.noteDepth() == TaskNote.NO_DRAW || choice.noteDepth() == d.noteDepth());
  }

  /**
   * Why the log cannot show this candidate's state, for {@code decisions}; empty when it can. The per-task ledger
   * needs each task's identity (its intent text, or its logged embedding) and each pooled memory's outcome (its
   * {@code remember} event); utilities learned by other knobs than the logged ones matter where Q ranks (λ > 0).
   */
  List<String> unseeable(String name, List<OffPolicyEvaluation.Decision> decisions,
      Map<String, Map<String, OfflineLearning.Known>> memories, Map<String, Integer> embedderBlocks) {
    List<String> out = new java.util.ArrayList<>();
    int n = decisions.size();
    long weighed = decisions.stream()
        .filter(d -> io.memloop.policy.Blocks.count(config, embedderBlocks.getOrDefault(d.ns(), 1)) > 1).count();
    if (weighed > 0) {
      out.add(String.format(java.util.Locale.ROOT, "'%s' weighs the similarity of each embedding model (similarityBlocks) "
          + "by weights it learns from rewards in %d of %d decisions, and a log holds one similarity per candidate (the "
          + "models' mean): its ranking cannot be replayed along this log (evaluate it with similarityBlocks=1, or online)",
          name, weighed, n));
    }
    // A log holds each candidate's similarity as the logging policy ranked by it: the learned one where that policy
    // learned one (similarityDirections), fitted on the successful pairs a replay credits too, else the cosine. So the
    // candidate's own similarity is in the log only where it learns as many directions as the logging policy did.
    long otherSimilarity = 0;
    int mine = 0;
    int logged = 0; // of the first decision where the two differ
    for (OffPolicyEvaluation.Decision d : decisions) {
      int blocks = embedderBlocks.getOrDefault(d.ns(), 1);
      int candidate = learnedDirections(config, blocks);
      int theirs = learnedDirections(d.config(), blocks);
      if (candidate != theirs && otherSimilarity++ == 0) {
        mine = candidate;
        logged = theirs;
      }
    }
    if (otherSimilarity > 0) {
      out.add(String.format(java.util.Locale.ROOT, "'%s' ranks by %s, and in %d of %d decisions the logging policy ranked "
          + "by %s: the log holds the logging policy's similarity of each candidate (not the queries or the memories' "
          + "vectors), so its ranking cannot be replayed there (evaluate it with similarityDirections=%d as logged, or "
          + "online)", name, similarityName(mine), otherSimilarity, n, similarityName(logged), logged));
    }
    // Likewise the texts' similarity (textSimilarity): the log holds the logging policy's mixed similarity, not the texts.
    long otherText = 0;
    boolean mixes = false;
    for (OffPolicyEvaluation.Decision d : decisions) {
      int blocks = embedderBlocks.getOrDefault(d.ns(), 1);
      boolean candidate = io.memloop.policy.TextChannel.on(config, io.memloop.policy.Blocks.count(config, blocks));
      boolean theirs = io.memloop.policy.TextChannel.on(d.config(), io.memloop.policy.Blocks.count(d.config(), blocks));
      if (candidate != theirs && otherText++ == 0) {
        mixes = candidate;
      }
    }
    if (otherText > 0) {
      out.add(String.format(java.util.Locale.ROOT, "'%s' %s the words of the texts into a new task's similarity, and in %d "
          + "of %d decisions the logging policy %s: the log holds the logging policy's similarity of each candidate, not "
          + "the texts, so its ranking cannot be replayed there (evaluate it with textSimilarity=%s as logged, or online)",
          name, mixes ? "mixes" : "does not mix", otherText, n, mixes ? "did not" : "did", mixes ? "OFF" : "LEARNED"));
    }
    if (config.taskLearning() == io.memloop.MemLoopConfig.TaskLearning.NEIGHBOURS) {
      out.add(String.format(java.util.Locale.ROOT, "'%s' reads what its neighbouring tasks learned (taskLearning=NEIGHBOURS), "
          + "which depends on the intents of the pooled memories, and a log does not carry them: its choices cannot be "
          + "replayed along this log (evaluate it with taskLearning=ON, or online)", name));
    }
    if (replaysLearning()) {
      long anonymous = decisions.stream().filter(d -> d.task() == null).count();
      if (anonymous > 0) {
        out.add(String.format(java.util.Locale.ROOT, "'%s' learns per task, and %d of %d logged retrievals name no task "
            + "(no intent text, no logged embedding): its per-task ledger cannot be replayed along this log", name,
            anonymous, n));
      }
      java.util.TreeSet<String> unknown = new java.util.TreeSet<>();
      for (OffPolicyEvaluation.Decision d : decisions) {
        for (Candidate c : d.pool()) {
          if (!memories.getOrDefault(d.ns(), Map.of()).containsKey(c.memoryId())) {
            unknown.add(c.memoryId());
          }
        }
      }
      if (!unknown.isEmpty()) {
        out.add(String.format(java.util.Locale.ROOT, "'%s' learns per task from which memories are success experiences, "
            + "and %d pooled memories (first %s) have no remember event in the log (remembered before it started): "
            + "their outcomes, and so its per-task ledger, cannot be replayed", name, unknown.size(), unknown.first()));
      }
    }
    if (config.lambda() > 0) {
      long differ = decisions.stream().filter(d -> !sameUtilityLearning(d.config())).count();
      if (differ > 0) {
        out.add(String.format(java.util.Locale.ROOT, "'%s' ranks by utility (lambda=%s) learned with other knobs than the "
            + "logging policy's (alpha, reward range, initial utilities, gamma) in %d of %d decisions: the log holds the "
            + "logging policy's utilities, not the ones it would have learned", name, config.lambda(), differ, n));
      }
    }
    return out;
  }

  /** How many directions a namespace of {@code blocks} blocks learns under {@code c}; 0 when it ranks by the cosine. */
  private static int learnedDirections(MemLoopConfig c, int blocks) {
    return io.memloop.policy.Directions.on(c, io.memloop.policy.Blocks.count(c, blocks)) ? c.similarityDirections() : 0;
  }

  private static String similarityName(int directions) {
    return directions == 0 ? "the cosine"
        : "a similarity learned from rewards (similarityDirections=" + directions + ")";
  }

  private boolean sameUtilityLearning(MemLoopConfig logged) {
    return logged.alpha() == config.alpha() && logged.rewardMin() == config.rewardMin()
        && logged.rewardMax() == config.rewardMax() && logged.gamma() == config.gamma()
        && logged.initialQ(io.memloop.Outcome.SUCCESS) == config.initialQ(io.memloop.Outcome.SUCCESS)
        && logged.initialQ(io.memloop.Outcome.FAILURE) == config.initialQ(io.memloop.Outcome.FAILURE)
        && logged.initialQ(io.memloop.Outcome.UNKNOWN) == config.initialQ(io.memloop.Outcome.UNKNOWN);
  }
}
