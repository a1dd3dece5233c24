package io.memloop;

import io.memloop.policy.Doubt;
import io.memloop.policy.PoolEntry;
import io.memloop.policy.Selection;
import io.memloop.policy.SelectionPipeline;
import io.memloop.policy.TaskNote;
import io.memloop.policy.TaskView;
import io.memloop.store.Annotations;
import io.memloop.store.InMemoryStore;
import io.memloop.store.IntentMatch;
import io.memloop.store.RetrievalRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * A configuration's per-task learning ({@link MemLoopConfig.TaskLearning#ON}) replayed along a logged history, for
 * off-policy evaluation. The engine's own ledger ({@link TaskLedger}) and Phase B ({@link SelectionPipeline}) run
 * on an in-memory ledger of their own: at each logged decision {@link #choose} gives every slate the configuration
 * could show, with its probability over the configuration's own draws (exploring or not, the note depth), given
 * what its ledger has learned from the log's earlier decisions; {@link #learn} then feeds the ledger the logged
 * outcome: the slate the logging policy showed and the reward it got.
 *
 * <p>Off-policy, the ledger sees only the rewards of the logged slates, never those of its own choices: what
 * this replays is "this learning rule fed by this log", not the same rule deployed (which would learn from its
 * own choices and store other memories). The credit goes where the engine would put it: to the memories the
 * reward named as used, else to the first success experience shown (in the logged order). A logged slate counts
 * as exploring (or as not exploring) for the namespace's comparison only when it is the configuration's own
 * exploring (or staying) slate. What is not replayed: repeats of attempts a shortened failure note hid
 * ({@link TaskLedger#hiddenAttemptRepeated}), which need the agent's remembered attempts matched to their notes.
 *
 * <p>Not thread-safe: one instance per candidate and log, fed in log order.
 */
public final class OfflineLearning {
  /**
   * What the replay needs to know of a memory beyond the logged pool: its outcome (success experiences are
   * what a failing task explores and what gets the credit) and its text (a merged failure note's attempts).
   */
  public record Known(Outcome outcome, String experience) {}

  /**
   * One slate the configuration could show at a decision.
   *
   * @param slate the memory ids, in the order shown
   * @param noteDepth {@link TaskNote#WHOLE} or {@link TaskNote#NEWEST} when a long failure note's depth was drawn,
   *     else {@link TaskNote#NO_DRAW}
   * @param probability over the configuration's draws; the choices of a decision sum to 1
   */
  public record Choice(List<String> slate, int noteDepth, double probability) {}

  private static final Instant EPOCH = Instant.EPOCH;
  private static final float[] UNIT = {1f};

  private final MemLoopConfig config;
  private final MemLoopConfig selection;
  private final TaskLedger ledger = new TaskLedger(new InMemoryStore(1), 1, false, false); // the log's memories are not in it
  private @Nullable Pending pending;
  private long decisions;
  private boolean recallComplete = true;

  /** The last decision's arms, kept for {@link #learn}. */
  private record Pending(String ns, TaskView task, boolean explorable, @Nullable Set<String> stay,
      @Nullable Set<String> go, String explored, boolean drawsDepth, @Nullable List<String> kept,
      @Nullable List<String> demoted) {}

  /**
   * @throws MemLoopException INVALID_ARGUMENT naming {@code config} when it does not learn per task
   */
  public OfflineLearning(MemLoopConfig config) {
    if (!config.taskLearning().perTask()) {
      throw MemLoopException.invalid("config", "learns nothing per task (taskLearning=" + config.taskLearning() + ")");
    }
    // The logged similarity of each candidate is used as its own (see choose). A learned similarity
    // (similarityDirections) is not fitted again: a log holds neither the queries nor the memories' vectors, but where
    // the logging policy learned one with as many directions, each candidate's logged similarity is the learned one,
    // fitted on the same successful pairs this replay would credit (the caller checks that, CandidatePolicy#unseeable).
    // The same holds for the texts' similarity (textSimilarity), which a logged pool has no texts for.
    this.config = config.similarityDirections() == 0 && config.textSimilarity() == MemLoopConfig.TextSimilarity.OFF ? config
        : config.toBuilder().similarityDirections(0).textSimilarity(MemLoopConfig.TextSimilarity.OFF).build();
    // exploration by ε is not evaluated
    this.selection = this.config.toBuilder().set("similarityScope", "INTENT_GROUP").set("epsilon", "0")
        .set("exploration", "NONE").build();
  }

  /** Whether {@code config}'s choices depend on a per-task ledger learned along the way. */
  public static boolean learnsPerTask(MemLoopConfig config) {
    return config.taskLearning().perTask();
  }

  /**
   * Every slate the configuration could show at this decision, with its probability, given what it has learned.
   *
   * @param task the task's identity as the engine keys it: its intent text (or a stable rendering of its
   *     embedding when it has none)
   * @param pool the logged candidate pool; each candidate's logged similarity stands for its own intent's cosine
   * @param memories what is known of each pooled memory; an unknown one counts as an unknown outcome
   */
  public List<Choice> choose(String ns, String task, List<Candidate> pool, Map<String, Known> memories) {
    return choose(ns, task, pool, memories, null);
  }

  /**
   * As {@link #choose(String, String, List, Map)}, from what this configuration's Phase A would have recalled of the
   * logged pool ({@link OfflineSelection#recall}): its similarity gate, and its k1 intents, or its {@code
   * firstEncounterK1} while the task has no record of its own, as the engine recalls. {@link #recallComplete} then
   * says whether the log held all of that recall.
   *
   * @param logged the logging policy's configuration; null to take the pool as logged
   */
  public List<Choice> choose(String ns, String task, List<Candidate> pool, Map<String, Known> memories,
      @Nullable MemLoopConfig logged) {
    recallComplete = true;
    List<IntentMatch> matches = null;
    TaskView view = null;
    if (logged != null) {
      boolean wider = SelectionPipeline.wideRecall(config);
      OfflineSelection.Recalled r = OfflineSelection.recall(pool, config, wider ? config.firstEncounterK1() : config.k1(), logged);
      if (wider) {
        // a task the wider recall shows known recalls k1, as in the engine; intents the log lacks could only show
        // more of the task's own, so a task found known here is known. A new task keeps the wider recall and its view.
        matches = matches(ns, r.pool(), memories);
        view = ledger.view(ns, Intent.ofText(task), UNIT, matches, config);
        if (!SelectionPipeline.firstEncounter(view, PoolEntry.pool(UNIT, matches, selection.similarityScope()), UNIT)) {
          r = OfflineSelection.recall(pool, config, config.k1(), logged);
          matches = null;
        }
      }
      pool = r.pool();
      recallComplete = r.complete();
    }
    if (matches == null) {
      matches = matches(ns, pool, memories);
      view = ledger.view(ns, Intent.ofText(task), UNIT, matches, config);
    }
    // enumerate the draws: the exploring draw (when the task can explore), the doubt's (when a new task's two orders
    // differ), then the note-depth draw
    List<Choice> choices = new ArrayList<>();
    Set<String> stay = null;
    Set<String> go = null;
    List<String> kept = null;
    List<String> demoted = null;
    String explored = "";
    boolean explorable = false;
    boolean drawsDepth = false;
    Set<List<Boolean>> seen = new HashSet<>();
    for (int bits = 0; bits < 8; bits++) {
      Scripted random = new Scripted(bits);
      Selection s = SelectionPipeline.select(UNIT, matches, selection, view, random);
      if (!seen.add(random.used())) {
        continue; // the same draws as an earlier branch: fewer draws than bits
      }
      TaskNote note = s.note();
      double p = 1;
      int draw = 0;
      if (note.explorable()) {
        explorable = true;
        boolean explore = random.used().get(draw++);
        p *= explore ? view.explorationProbability() : 1 - view.explorationProbability();
        Set<String> slate = ids(s.selected());
        if (explore) {
          go = slate;
          explored = note.explored();
        } else {
          stay = slate;
        }
      }
      int arm = Doubt.drawn(s.annotations());
      if (arm != Doubt.NO_DRAW) {
        boolean demote = random.used().get(draw++);
        p *= demote ? view.doubtProbability() : 1 - view.doubtProbability();
        List<String> slate = s.selected().stream().map(Memory::id).toList();
        if (arm == Doubt.DEMOTED) {
          demoted = slate;
        } else {
          kept = slate;
        }
      }
      if (note.noteDepth() != TaskNote.NO_DRAW) {
        drawsDepth = true;
        boolean whole = random.used().get(draw);
        p *= whole ? view.fullNoteProbability() : 1 - view.fullNoteProbability();
      }
      choices.add(new Choice(s.selected().stream().map(Memory::id).toList(), note.noteDepth(), p));
    }
    pending = new Pending(ns, view, explorable, stay, go, explored, drawsDepth, kept, demoted);
    return List.copyOf(choices);
  }

  /**
   * Feeds the ledger the logged outcome of the decision {@link #choose} was last asked about.
   *
   * @param shown the logged slate, in the order shown
   * @param noteDepth the depth the logging policy showed a long failure note at ({@link TaskNote#WHOLE} when it
   *     showed every attempt)
   * @param used the memories the reward named as used, or null when it did not say
   * @throws IllegalStateException without a {@link #choose} first
   */
  public void learn(List<String> shown, int noteDepth, double reward, @Nullable List<String> used,
      Map<String, Known> memories) {
    if (pending == null) {
      throw new IllegalStateException("learn without a decision: call choose first");
    }
    Pending d = pending;
    pending = null;
    Set<String> logged = new LinkedHashSet<>(shown);
    boolean asGo = d.go() != null && d.go().equals(logged) && !logged.equals(d.stay());
    boolean asStay = d.stay() != null && d.stay().equals(logged);
    TaskNote note = new TaskNote(d.task().context(), asGo ? d.explored() : "", d.explorable() && (asGo || asStay));
    for (String id : shown) {
      Known k = memories.get(id);
      if (k != null && k.outcome() == Outcome.SUCCESS) {
        note = note.withAssumedUsed(id);
        break;
      }
    }
    if (d.drawsDepth()) {
      note = note.withNoteDepth(noteDepth);
    }
    // the doubt's arm the logged slate is (in the order shown), when the two orders differed
    int arm = d.demoted() != null && d.demoted().equals(shown) && !shown.equals(d.kept()) ? Doubt.DEMOTED
        : d.kept() != null && d.kept().equals(shown) ? Doubt.KEPT : Doubt.NO_DRAW;
    Annotations annotations = note.into(Annotations.EMPTY);
    if (arm != Doubt.NO_DRAW) {
      annotations = Doubt.into(annotations, arm);
    }
    List<Candidate> candidates = shown.stream().map(id -> new Candidate(id, 0, 0, 0, true, 1)).toList();
    RetrievalRecord record = new RetrievalRecord("replay-" + ++decisions, d.ns(), EPOCH, EPOCH, candidates, annotations);
    ledger.learn(d.ns(), record, reward, used, config);
  }

  /** Whether the log held everything the last {@link #choose} with a logging configuration would have recalled. */
  public boolean recallComplete() {
    return recallComplete;
  }

  /** Each logged candidate as its own intent, oldest first: the shape the ledger and Phase B read. */
  private static List<IntentMatch> matches(String ns, List<Candidate> pool, Map<String, Known> memories) {
    List<IntentMatch> matches = new ArrayList<>(pool.size());
    for (Candidate c : OfflineSelection.oldestFirst(pool)) {
      long seq = io.memloop.store.MemoryStore.sequenceOf(c.memoryId());
      Instant created = Instant.ofEpochSecond(Math.max(0, Math.min(seq, Instant.MAX.getEpochSecond())));
      Known k = memories.get(c.memoryId());
      // a 1-d "embedding" whose dot with the unit query is the logged similarity: the same-intent test reads it
      Memory m = new Memory(c.memoryId(), ns, c.memoryId(), "", new float[] {(float) c.similarity()},
          k == null ? "-" : k.experience(), k == null ? Outcome.UNKNOWN : k.outcome(), c.q(), 0, created, created);
      matches.add(new IntentMatch(c.memoryId(), c.similarity(), List.of(m)));
    }
    return matches;
  }

  private static Set<String> ids(List<Memory> selected) {
    Set<String> out = new LinkedHashSet<>();
    selected.forEach(m -> out.add(m.id()));
    return out;
  }

  /**
   * Draws as scripted: the i-th {@code nextDouble} is 0 (below any positive probability: the draw says yes) when
   * bit i of {@code bits} is clear, else just below 1 (no). Records the answers it gave.
   */
  private static final class Scripted implements RandomGenerator {
    private final int bits;
    private final List<Boolean> used = new ArrayList<>(2);

    Scripted(int bits) {
      this.bits = bits;
    }

    @Override
    public double nextDouble() {
      boolean yes = (bits >> used.size() & 1) == 0;
      used.add(yes);
      return yes ? 0 : Math.nextDown(1.0);
    }

    @Override
    public long nextLong() {
      throw new IllegalStateException("the replay evaluates a configuration without epsilon-greedy draws");
    }

    List<Boolean> used() {
      return List.copyOf(used);
    }
  }
}
