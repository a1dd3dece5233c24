package io.memloop;

import io.memloop.policy.Blocks;
import io.memloop.policy.Directions;
import io.memloop.policy.DirectionsUse;
import io.memloop.policy.Doubt;
import io.memloop.policy.TaskNote;
import io.memloop.policy.TaskView;
import io.memloop.policy.TextAlone;
import io.memloop.policy.TextChannel;
import io.memloop.store.IntentMatch;
import io.memloop.store.MemoryStore;
import io.memloop.store.RetrievalRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Per-task learning ({@link MemLoopConfig.TaskLearning}): what the engine keeps in the store's ledger
 * and how a reward updates it. Entries of a namespace:
 *
 * <ul>
 *   <li>{@code t:<task>} → [failures since the task's last success, explorations so far, the namespace's rewarded
 *       retrievals when the task was last rewarded (its tick; absent in entries written before it was kept)];
 *   <li>{@code p:<task>:<memory>} → [net centred reward of the episodes of the task that used the memory];
 *   <li>{@code n} → [exploring episodes, their summed success, episodes that could have explored but
 *       did not, their summed success] — whether exploring pays in this namespace. Which of the two a
 *       task that can explore gets is drawn at random ({@link #explorationProbability}), so the
 *       comparison is not biased by which tasks explore;
 *   <li>{@code d} → [episodes shown long failure notes whole, their summed success, episodes shown them as
 *       their newest k2 attempts (and repeats of attempts that shortening hid, see {@link #hiddenAttemptRepeated}),
 *       their summed success] — the note-depth draw's record;
 *   <li>{@code r} → [rewarded retrievals, those whose task had been rewarded before] — whether tasks come back in
 *       this namespace ({@link TaskView#recurrence}, which {@link MemLoopConfig#freshness()} weighs by);
 *   <li>{@code c:<memory>} → [episodes that used the memory and succeeded, failed uses since its last successful one]
 *       — whether a success experience has gone stale ({@link TaskView#stale}) or is doubted ({@link TaskView#doubted});
 *   <li>{@code s} → [episodes of new tasks shown their doubted successes last, their summed success, episodes that
 *       kept them in place, their summed success] — the doubt's draw's record ({@link Doubt}), drawn at random as
 *       {@code n}'s;
 *   <li>{@code v} → [episodes of new tasks ranked by the learned similarity, their summed success, episodes ranked by
 *       the plain cosine, their summed success] — the learned similarity's draw's record ({@link DirectionsUse}), of
 *       the embedding model ({@link LedgerKeys#ofTheModel});
 *   <li>{@code l} → [episodes of new tasks ranked by the texts' similarity alone, their summed success, episodes ranked
 *       by the learned mix of the vectors' and the texts', their summed success], each weighed down by every later
 *       draw — the texts-alone draw's record ({@link TextAlone}), of the embedding model;
 *   <li>{@code b} → [updates, summed reward in [0, 1], spread, each block's gain] — how much each block of a vector
 *       split into blocks is trusted ({@link Blocks}, {@link MemLoopConfig#similarityBlocks()} above 1);
 *   <li>{@code g} → [the tick of the last sweep, the keys it left] — when the next sweep is due ({@link #sweep}).
 * </ul>
 *
 * <p>The ledger stays bounded ({@link #sweep}): the entries of a memory ({@code c:}, {@code u:}, {@code p:…:<memory>})
 * go once the memory is gone (deleted, evicted, merged away), and a task's ({@code t:}, {@code p:<task>:…}) once
 * {@value #TASKS_KEPT} other tasks (or {@value #TASKS_PER_MEMORY} per memory, if more) have been rewarded since it was.
 * Without it a namespace whose tasks seldom come back grows by about three entries per episode for ever,
 * {@code maxMemories} or not.
 *
 * A task's key is a SHA-256 of its intent text, or of its embedding when it has no text, so the same
 * task asked again finds its entries. Rewards are centred on the middle of the reward range, and
 * success is a reward above it; a memory is proven for a task once its net reward exceeds half the
 * range, and failed once it is below minus that.
 *
 * <p>Thread safety: read-modify-write of a namespace's entries is serialised here, per namespace.
 */
final class TaskLedger {
  private final MemoryStore store;
  private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();

  /** How many blocks the engine's embedder makes ({@link Blocks#count}, for {@code similarityBlocks} 0). */
  private final int embedderBlocks;

  /** How many blocks the engine's embedder concatenates (1 for one model). */
  int embedderBlocks() {
    return embedderBlocks;
  }

  /** Whether rewards trigger {@link #sweep}: not for a ledger whose memories are not in its store. */
  private final boolean sweeps;

  /**
   * Where refits of the learned similarity run when not inside the reward that triggers them ({@link
   * MemLoop.Builder#learnInBackground}): one thread of the ledger's own; null runs them inside the reward.
   */
  private final java.util.concurrent.@Nullable ExecutorService background;

  /** Namespaces with a refit queued or running on {@link #background}: one at a time each. */
  private final Set<String> refitting = ConcurrentHashMap.newKeySet();

  private static final System.Logger LOG = System.getLogger(TaskLedger.class.getName());

  /** The object a namespace's read-modify-write of its entries synchronises on. */
  private Object lock(String namespace) {
    return locks.computeIfAbsent(namespace, k -> new Object());
  }

  TaskLedger(MemoryStore store, int embedderBlocks) {
    this(store, embedderBlocks, true, false);
  }

  /**
   * @param sweeps whether rewards sweep the ledger ({@link #sweep}); false where the store does not hold the memories
   *     the entries name (a replay of a log, {@link OfflineLearning}), which a sweep would read as gone
   * @param background whether refits of the learned similarity run on a thread of the ledger's own, after the reward
   *     that triggers them, rather than inside it ({@link #close} waits for them)
   */
  TaskLedger(MemoryStore store, int embedderBlocks, boolean sweeps, boolean background) {
    this.store = store;
    this.embedderBlocks = embedderBlocks;
    this.sweeps = sweeps;
    this.background = background ? java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "memloop-learning");
      t.setDaemon(true);
      return t;
    }) : null;
  }

  /** Waits for every refit queued so far on the background thread (none without one). */
  void awaitBackground() {
    if (background != null) {
      try {
        background.submit(() -> {}).get(); // one thread, first in first out: what was queued before has run
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closed: close() waited
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Lets queued refits finish (up to a minute), then stops the background thread. */
  void close() {
    if (background != null) {
      background.shutdown();
      try {
        if (!background.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES)) {
          background.shutdownNow();
        }
      } catch (InterruptedException e) {
        background.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The key of the task {@code intent} asks for ({@code query} is its unit embedding). */
  static String taskKey(Intent intent, float[] query) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
    Optional<String> text = intent.optionalText();
    if (text.isPresent()) {
      return "t" + HexFormat.of().formatHex(sha.digest(text.get().getBytes(StandardCharsets.UTF_8)), 0, 16);
    }
    ByteBuffer b = ByteBuffer.allocate(query.length * Float.BYTES);
    for (float f : query) {
      b.putFloat(f);
    }
    return "e" + HexFormat.of().formatHex(sha.digest(b.array()), 0, 16);
  }

  TaskView view(
      String namespace, Intent intent, float[] query, List<IntentMatch> matches, MemLoopConfig config) {
    String task = taskKey(intent, query);
    List<String> keys = new ArrayList<>();
    keys.add("t:" + task);
    keys.add("n");
    keys.add("d");
    keys.add("r");
    int blockCount = Blocks.count(config, embedderBlocks);
    boolean blocks = blockCount > 1;
    if (blocks) {
      keys.add(Blocks.LEDGER_KEY);
    }
    boolean learnsSimilarity = Directions.on(config, blockCount);
    if (learnsSimilarity) {
      keys.add(Directions.PAIRS_KEY);
    }
    float[] words = TextChannel.on(config, blockCount) && intent.text() != null
        ? TextChannel.queryVector(intent.text(), query) : null;
    boolean text = words != null;
    if (text) {
      keys.add(TextChannel.LEDGER_KEY);
    }
    boolean doubts = Doubt.on(config);
    if (doubts) {
      keys.add(Doubt.LEDGER_KEY);
    }
    boolean drawsDirections = learnsSimilarity && DirectionsUse.on(config);
    if (drawsDirections) {
      keys.add(DirectionsUse.LEDGER_KEY);
    }
    boolean drawsTextAlone = text && TextAlone.on(config);
    if (drawsTextAlone) {
      keys.add(TextAlone.LEDGER_KEY);
    }
    boolean neighbours = config.taskLearning() == MemLoopConfig.TaskLearning.NEIGHBOURS;
    for (IntentMatch match : matches) {
      for (Memory m : match.memories()) {
        keys.add(LedgerKeys.pair(task, m.id()));
        if (neighbours) {
          keys.add(LedgerKeys.uses(m.id()));
        }
      }
    }
    Map<String, double[]> entries = store.ledger(namespace, keys); // one read: the neighbours' uses come with it
    double[] t = entries.getOrDefault("t:" + task, new double[2]);
    double[] n = entries.getOrDefault("n", new double[4]);
    Map<String, Double> net = new HashMap<>();
    String prefix = "p:" + task + ":";
    entries.forEach((k, v) -> {
      if (k.startsWith(prefix)) {
        net.put(k.substring(prefix.length()), v[0]);
      }
    });
    double[] d = entries.getOrDefault("d", new double[4]);
    Map<String, Double> neighbourNet = neighbours ? neighbourNet(entries, task, query, matches, net.keySet()) : Map.of();
    double[] r = entries.getOrDefault("r", new double[2]);
    Directions.Fit fit = learnsSimilarity ? fitted(namespace, entries.get(Directions.PAIRS_KEY), query.length) : null;
    TaskView view = new TaskView(task, (int) t[0], (int) t[1], explorationProbability(n), net, halfRange(config),
        explorationProbability(d), neighbourNet, recurrence(r), Set.of(),
        blocks ? Blocks.weights(entries.get(Blocks.LEDGER_KEY), blockCount) : new double[0], fit,
        text ? Blocks.weights(entries.get(TextChannel.LEDGER_KEY), TextChannel.CHANNELS) : new double[0],
        words, Set.of(), doubts ? Doubt.probability(explorationProbability(entries.getOrDefault(Doubt.LEDGER_KEY,
            new double[4])), recurrence(r)) : 0.5,
        drawsDirections ? explorationProbability(entries.getOrDefault(DirectionsUse.LEDGER_KEY, new double[4])) : 1,
        drawsTextAlone ? TextAlone.probability(explorationProbability(entries.getOrDefault(TextAlone.LEDGER_KEY,
            new double[4])), recurrence(r)) : 0);
    if (!view.noRecord() || (config.freshness() <= 0 && !doubts)) {
      return view;
    }
    Map<String, double[]> credit = credit(namespace, matches);
    Set<String> stale = new HashSet<>();
    Set<String> doubted = new HashSet<>();
    credit.forEach((id, v) -> {
      if (v[0] >= 1 && v[1] >= TaskView.STALE_AFTER) {
        stale.add(id);
      }
      if (v[1] >= 1) {
        doubted.add(id);
      }
    });
    return view.withCredit(config.freshness() > 0 ? stale : Set.of(), doubts ? doubted : Set.of());
  }

  /**
   * The credit entries ({@code c:}: [episodes that used it and succeeded, failed uses since its last successful one]) of
   * the pooled success experiences, by memory id, for a task with no record of its own: which have gone stale (they
   * helped an episode that used them once at least, and the last {@link TaskView#STALE_AFTER} episodes that used them
   * all failed) and which are doubted (their latest use failed). A use is as credited: the memories the agent named, or
   * the first success it was shown. One more read of the ledger.
   */
  private Map<String, double[]> credit(String namespace, List<IntentMatch> matches) {
    List<String> keys = new ArrayList<>();
    for (IntentMatch match : matches) {
      for (Memory m : match.memories()) {
        if (m.outcome() == Outcome.SUCCESS) {
          keys.add(LedgerKeys.credit(m.id()));
        }
      }
    }
    if (keys.isEmpty()) {
      return Map.of();
    }
    Map<String, double[]> out = new HashMap<>();
    store.ledger(namespace, keys).forEach((k, v) -> out.put(k.substring(2), v));
    return out;
  }

  /** Most uses of one memory its {@code u:} entry remembers (the newest). */
  static final int USES_KEPT = 16;

  /**
   * What other tasks' uses say of each pooled memory the asking task has not used itself: a kernel over the
   * queries that used it. Each use of a memory (its {@code u:} entry: the using task, the centred reward and the
   * cosine of that task's query to the memory, newest last) counts fully when its query was at least as near the
   * memory as the asking one is, and less the farther it was below, down to nothing at the spread of the pool's
   * similarities ({@code 1 − (now − then) / (max − min)}, so the scale of the embedding model does not matter);
   * each counted use's weight is half the one before it, newest first: the newest evidence decides, and a memory
   * that went stale loses once its newest uses fail, however long it was right before. Uses by the asking task
   * itself and by the task that wrote the memory (which say nothing of any other task) do not count.
   */
  private static Map<String, Double> neighbourNet(Map<String, double[]> entries, String task, float[] query,
      List<IntentMatch> matches, Set<String> ownEvidence) {
    Map<String, Long> writer = new HashMap<>(); // memory → the task that wrote it
    Map<String, Double> similarity = new HashMap<>(); // memory → its cosine to the query
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (IntentMatch match : matches) {
      for (Memory m : match.memories()) {
        double sim = io.memloop.Vectors.dot(query, m.intentEmbedding());
        lo = Math.min(lo, sim);
        hi = Math.max(hi, sim);
        if (!ownEvidence.contains(m.id()) && entries.containsKey(LedgerKeys.uses(m.id()))) {
          writer.put(m.id(), taskHash(taskKey(m)));
          similarity.put(m.id(), sim);
        }
      }
    }
    double spread = hi - lo;
    long self = taskHash(task);
    Map<String, Double> out = new HashMap<>();
    for (Map.Entry<String, Long> e : writer.entrySet()) {
      String id = e.getKey();
      double[] u = entries.get(LedgerKeys.uses(id));
      long own = e.getValue();
      double now = similarity.get(id);
      double sum = 0;
      double weight = 1;
      boolean any = false;
      for (int j = u.length - USE; j >= 0; j -= USE) { // newest first
        long by = (long) u[j];
        if (by == own || by == self) {
          continue;
        }
        // helpfulness falls with distance: a success counts fully for a query at least as near the memory as the
        // one it came from, a failure for one at most as near; beyond that, less with the gap
        double gap = u[j + 1] > 0 ? u[j + 2] - now : now - u[j + 2];
        double near = gap <= 0 ? 1 : spread > 0 ? 1 - gap / spread : 0;
        if (near <= 0) {
          continue;
        }
        sum += weight * near * u[j + 1];
        weight /= 2;
        any = true;
      }
      if (any) {
        out.put(id, sum);
      }
    }
    return out;
  }

  /** Numbers per use in a {@code u:} entry: the using task's hash, the centred reward, the cosine to the memory. */
  static final int USE = 3;

  /** A task key's first 52 bits, exact in a {@code double}. */
  static long taskHash(String task) {
    return Long.parseLong(task.substring(1, 14), 16);
  }

  /** Task keys of intent texts seen lately: a memory's task key is asked for on every retrieval that pools it. */
  private static final java.util.concurrent.ConcurrentHashMap<String, String> keysByText = new java.util.concurrent.ConcurrentHashMap<>();

  /** The key of the task that wrote {@code m} (its intent text, or its embedding when it had none). */
  private static String taskKey(Memory m) {
    if (m.intentText().isEmpty()) {
      return taskKey(Intent.ofEmbedding(m.intentEmbedding()), m.intentEmbedding());
    }
    String key = keysByText.get(m.intentText());
    if (key == null) {
      key = taskKey(Intent.ofText(m.intentText()), m.intentEmbedding());
      if (keysByText.size() >= 65_536) {
        keysByText.clear();
      }
      keysByText.put(m.intentText(), key);
    }
    return key;
  }

  /**
   * Probability matching between exploring and not exploring (Thompson sampling, with a normal
   * approximation of the two Beta posteriors): the chance that exploring has the higher success rate,
   * given each side's episodes. ½ with no evidence; it goes to 1 where exploring pays and to 0 where
   * it does not, and never quite reaches either, so a change in the namespace is noticed.
   */
  static double explorationProbability(double[] n) {
    double me = (n[1] + 1) / (n[0] + 2);
    double ms = (n[3] + 1) / (n[2] + 2);
    double var = me * (1 - me) / (n[0] + 3) + ms * (1 - ms) / (n[2] + 3);
    return normalCdf((me - ms) / Math.sqrt(var));
  }

  /** The namespace's recurrence from its entry {@code r} = [rewarded retrievals, of tasks rewarded before]: (k + 1) / (n + 2). */
  private static double recurrence(double[] r) {
    return (r[1] + 1) / (r[0] + 2);
  }

  /** Φ(z), the standard normal distribution function (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
  static double normalCdf(double z) {
    double x = Math.abs(z) / Math.sqrt(2);
    double t = 1 / (1 + 0.3275911 * x);
    double erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592)
        * t * Math.exp(-x * x);
    return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
  }

  /**
   * The namespace's entries {@code n}, {@code d}, {@code r} and {@code b} as {@link Learned} (read-only).
   *
   * @param config the namespace's configuration (how many blocks its vectors split into)
   */
  Learned learned(String namespace, MemLoopConfig config) {
    Map<String, double[]> entries =
        store.ledger(namespace, List.of("n", "d", "r", Blocks.LEDGER_KEY, Directions.PAIRS_KEY, Directions.FIT_KEY,
            TextChannel.LEDGER_KEY, Doubt.LEDGER_KEY, DirectionsUse.LEDGER_KEY, TextAlone.LEDGER_KEY));
    double[] n = entries.getOrDefault("n", new double[4]);
    double[] s = entries.getOrDefault(Doubt.LEDGER_KEY, new double[4]);
    double[] v = entries.getOrDefault(DirectionsUse.LEDGER_KEY, new double[4]);
    double[] l = entries.getOrDefault(TextAlone.LEDGER_KEY, new double[4]);
    double[] d = entries.getOrDefault("d", new double[4]);
    double[] r = entries.get("r");
    double recurring = r == null ? 0.5 : recurrence(r); // as a draw weighs by it: ½ before any reward
    int blocks = Blocks.count(config, embedderBlocks);
    double[] b = entries.get(Blocks.LEDGER_KEY);
    List<Double> weights = new ArrayList<>();
    if (blocks > 1) {
      for (double w : Blocks.weights(b, blocks)) {
        weights.add(w);
      }
    }
    double[] x = entries.get(TextChannel.LEDGER_KEY);
    boolean texts = TextChannel.on(config, blocks);
    List<Double> text = new ArrayList<>();
    if (texts) {
      for (double w : Blocks.weights(x, TextChannel.CHANNELS)) {
        text.add(w);
      }
    }
    double[] pairs = entries.get(Directions.PAIRS_KEY);
    double[] head = entries.get(Directions.FIT_KEY); // [pairs at the fit, r, d, ...]: the fit's dimension, whatever it is
    Directions.Fit fit = head == null || head.length < 3 ? null : fitted(namespace, pairs, (int) head[2]);
    List<Double> scales = new ArrayList<>();
    Double share = null;
    if (fit != null) {
      for (double c : fit.coefficients()) {
        scales.add(1 + c);
      }
      share = fit.varianceShare();
    }
    return new Learned(true, (long) n[0], rate(n[1], n[0]), (long) n[2], rate(n[3], n[2]),
        n[0] + n[2] > 0 ? explorationProbability(n) : null, (long) d[0], rate(d[1], d[0]), (long) d[2], rate(d[3], d[2]),
        r == null ? null : recurrence(r), weights, blocks > 1 ? Blocks.updates(b, blocks) : 0,
        pairs == null || pairs.length < 1 ? 0 : (long) pairs[0], pairs == null || pairs.length < 2 ? 0 : (long) pairs[1],
        scales, share, text, texts ? Blocks.updates(x, TextChannel.CHANNELS) : 0, Math.round(s[0]), rate(s[1], s[0]),
        Math.round(s[2]), rate(s[3], s[2]),
        s[0] + s[2] > 0 ? Doubt.probability(explorationProbability(s), recurring) : null,
        Math.round(v[0]), rate(v[1], v[0]), Math.round(v[2]), rate(v[3], v[2]), v[0] + v[2] > 0 ? explorationProbability(v) : null,
        Math.round(l[0]), rate(l[1], l[0]), Math.round(l[2]), rate(l[3], l[2]),
        l[0] + l[2] > 0 ? TextAlone.probability(explorationProbability(l), recurring) : null);
  }

  private static @Nullable Double rate(double successes, double episodes) {
    return episodes > 0 ? successes / episodes : null;
  }

  private static double halfRange(MemLoopConfig config) {
    return (config.rewardMax() - config.rewardMin()) / 2;
  }

  /**
   * A task shown its failure note shortened to the newest k2 attempts failed by repeating one of the attempts
   * that were left out. The episode's reward already counted as a failure of the shortened arm, as it would
   * have for the whole arm; this is what the reward does not show: the attempt added nothing to the task's
   * record, where a whole note would have steered the agent to a new attempt. It counts as one more failed
   * episode of the shortened arm. (An agent that ignored its prompt altogether and happened to repeat a hidden
   * attempt counts too, although a whole note would not have helped it: a small bias towards whole notes,
   * proportional to how often agents ignore what they are shown.)
   */
  void hiddenAttemptRepeated(String namespace) {
    synchronized (lock(namespace)) {
      double[] d = store.ledger(namespace, List.of("d")).getOrDefault("d", new double[4]).clone();
      d[2]++;
      store.putLedger(namespace, Map.of("d", d));
    }
  }

  /** The namespaces' latest fits of the learned similarity, as read or made here (a bounded cache of the ledger's). */
  private final Map<String, Directions.Fit> fits = java.util.Collections.synchronizedMap(
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Directions.Fit> eldest) {
          return size() > FITS_CACHED;
        }
      });

  /** Namespaces whose fit {@link #fits} keeps. */
  static final int FITS_CACHED = 1024;

  /**
   * The namespace's learned similarity for vectors of dimension {@code d}, from its ledger entry {@code pairs} =
   * [successful pairs, pairs at the last fit]: the cached fit when it is that fit, else the ledger's; null before the
   * first fit.
   */
  private Directions.@Nullable Fit fitted(String namespace, double @Nullable [] pairs, int d) {
    if (pairs == null || pairs.length < 2 || pairs[1] <= 0) {
      return null;
    }
    Directions.Fit cached = fits.get(namespace);
    if (cached != null && cached.pairs() == (long) pairs[1] && cached.directions()[0].length == d) {
      return cached;
    }
    Map<String, double[]> entries = new HashMap<>(store.ledger(namespace, List.of(Directions.FIT_KEY)));
    entries.putAll(store.ledger(namespace, Directions.directionKeys(entries.get(Directions.FIT_KEY))));
    Directions.Fit read = Directions.decode(entries, d);
    if (read != null) {
      fits.put(namespace, read);
    }
    return read;
  }

  /**
   * The learned similarity's part of a reward ({@link Directions}): each credited memory and the successful episode's
   * query make a pair; its unit difference goes into the ring, and every {@link Directions#REFIT_EVERY} pairs (or when
   * the configured number of directions changed) the directions are fitted again over the ring: here, or on the
   * background thread once this reward has written ({@link #refitLater}). Adds the entries to write to {@code out}.
   */
  private void learnSimilarity(String namespace, float[] query, List<String> credited, double @Nullable [] pairsEntry,
      MemLoopConfig config, Map<String, double[]> out) {
    double[] pr = pairsEntry == null || pairsEntry.length < 2 ? new double[2] : pairsEntry;
    long pairs = (long) pr[0];
    long fittedAt = (long) pr[1];
    Map<String, float[]> added = new HashMap<>();
    for (String id : credited) {
      Optional<Memory> m = store.get(namespace, id);
      float[] x = m.isEmpty() || m.get().intentEmbedding().length != query.length ? null
          : Directions.difference(query, m.get().intentEmbedding());
      if (x != null) {
        String slot = Directions.slotKey(pairs++);
        added.put(slot, x);
        double[] v = new double[x.length];
        for (int i = 0; i < x.length; i++) {
          v[i] = x[i];
        }
        out.put(slot, v);
      }
    }
    if (added.isEmpty()) {
      return;
    }
    out.put(Directions.PAIRS_KEY, new double[] {pairs, fittedAt});
    int r = config.similarityDirections();
    Directions.Fit previous = fitted(namespace, pr, query.length);
    if (!refitDue(pairs, fittedAt, previous, r, query.length)) {
      return;
    }
    if (background != null) {
      queueRefit(background, namespace, r, query.length);
      return;
    }
    Directions.Fit fit = Directions.fit(ring(namespace, pairs, query.length, added), r, reshaped(previous, r, query.length)
        ? null : previous, pairs);
    out.putAll(Directions.encode(fit));
    fits.put(namespace, fit);
    out.put(Directions.PAIRS_KEY, new double[] {pairs, pairs});
  }

  /** Whether a namespace with {@code pairs} successful pairs, fitted at {@code fittedAt}, fits again now. */
  private static boolean refitDue(long pairs, long fittedAt, Directions.@Nullable Fit previous, int r, int d) {
    return pairs >= Directions.REFIT_EVERY && (pairs - fittedAt >= Directions.REFIT_EVERY || reshaped(previous, r, d));
  }

  /** Whether {@code previous} has another number of directions than {@code r} asks for at dimension {@code d}. */
  private static boolean reshaped(Directions.@Nullable Fit previous, int r, int d) {
    return previous != null && previous.directions().length != Math.min(r, d);
  }

  /**
   * The ring's differences of dimension {@code d} for a namespace at {@code pairs} pairs, in the order of the pairs:
   * {@code added} (this reward's, not written yet) where it has the slot, else the ledger's.
   */
  private List<float[]> ring(String namespace, long pairs, int d, Map<String, float[]> added) {
    List<String> slots = new ArrayList<>();
    for (long p = Math.max(0, pairs - Directions.RING); p < pairs; p++) {
      slots.add(Directions.slotKey(p));
    }
    List<String> read = new ArrayList<>(slots);
    read.removeAll(added.keySet());
    Map<String, double[]> stored = store.ledger(namespace, read);
    List<float[]> diffs = new ArrayList<>(slots.size());
    for (String slot : slots) {
      float[] x = added.get(slot);
      if (x == null) {
        double[] v = stored.get(slot);
        if (v != null && v.length == d) {
          x = new float[d];
          for (int i = 0; i < d; i++) {
            x[i] = (float) v[i];
          }
        }
      }
      if (x != null) {
        diffs.add(x);
      }
    }
    return diffs;
  }

  /**
   * A refit on the background thread: reads the pair count once the reward that queued it has written (under the
   * namespace's lock), fits over the ring outside the lock, and writes the fit under the lock unless a later fit got
   * there first. Rewards meanwhile add pairs and rank with the previous fit. A failure (a store closing, an I/O error)
   * is logged; the next due reward queues the refit again.
   */
  private void refitLater(String namespace, int r, int d) {
    boolean again = false;
    try {
      long pairs;
      Directions.Fit previous;
      synchronized (lock(namespace)) {
        double[] pr = store.ledger(namespace, List.of(Directions.PAIRS_KEY)).get(Directions.PAIRS_KEY);
        if (pr == null || pr.length < 2) {
          return;
        }
        pairs = (long) pr[0];
        previous = fitted(namespace, pr, d);
        if (!refitDue(pairs, (long) pr[1], previous, r, d)) {
          return;
        }
      }
      List<float[]> diffs = ring(namespace, pairs, d, Map.of());
      if (diffs.isEmpty()) {
        return;
      }
      Directions.Fit fit = Directions.fit(diffs, r, reshaped(previous, r, d) ? null : previous, pairs);
      synchronized (lock(namespace)) {
        double[] now = store.ledger(namespace, List.of(Directions.PAIRS_KEY)).get(Directions.PAIRS_KEY);
        if (now == null || now.length < 2 || (long) now[1] >= pairs) {
          return; // the ledger was reset, or a later fit is there
        }
        Map<String, double[]> out = new HashMap<>(Directions.encode(fit));
        out.put(Directions.PAIRS_KEY, new double[] {now[0], pairs});
        store.putLedger(namespace, out);
        fits.put(namespace, fit);
        again = refitDue((long) now[0], pairs, fit, r, d); // rewards that came while it ran made another due
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "refitting the learned similarity of namespace " + namespace + " failed; "
          + "the next successful reward tries again", e);
    } finally {
      refitting.remove(namespace);
    }
    if (again && background != null) {
      queueRefit(background, namespace, r, d);
    }
  }

  /**
   * Queues {@link #refitLater} for {@code namespace} on {@code executor} unless one is queued or running already; a
   * closing executor refuses it, and the next engine's due reward refits instead.
   */
  private void queueRefit(java.util.concurrent.ExecutorService executor, String namespace, int r, int d) {
    if (refitting.add(namespace)) {
      try {
        executor.execute(() -> refitLater(namespace, r, d));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        refitting.remove(namespace);
      }
    }
  }

  /** Updates the ledger for a rewarded retrieval. */
  void learn(String namespace, RetrievalRecord retrieval, double reward, @Nullable List<String> used, MemLoopConfig config) {
    TaskNote note = TaskNote.of(retrieval.annotations());
    int noteDepth = note.noteDepth();
    double mid = (config.rewardMax() + config.rewardMin()) / 2;
    double centred = reward - mid;
    boolean success = centred > 0;
    double unit = (reward - config.rewardMin()) / (config.rewardMax() - config.rewardMin());
    List<String> credited = used != null ? used : note.assumedUsed().isEmpty() ? List.of() : List.of(note.assumedUsed());
    synchronized (lock(namespace)) {
      String taskKey = "t:" + note.context();
      List<String> keys = new ArrayList<>(List.of(taskKey, "n", "r", SWEEP_KEY));
      if (noteDepth != TaskNote.NO_DRAW) {
        keys.add("d");
      }
      for (String id : credited) {
        keys.add(LedgerKeys.pair(note.context(), id));
        keys.add(LedgerKeys.credit(id));
      }
      float[] similarityQuery = success && !credited.isEmpty() && Directions.on(config, Blocks.count(config, embedderBlocks))
          ? Directions.query(retrieval.annotations()) : null;
      if (similarityQuery != null) {
        keys.add(Directions.PAIRS_KEY);
      }
      double[] blockZ = Blocks.creditedZ(retrieval.annotations(), retrieval.candidates(), credited);
      if (blockZ != null) {
        keys.add(Blocks.LEDGER_KEY);
      }
      double[] textZ = TextChannel.creditedZ(retrieval.annotations(), retrieval.candidates(), credited);
      if (textZ != null) {
        keys.add(TextChannel.LEDGER_KEY);
      }
      int doubtArm = Doubt.drawn(retrieval.annotations());
      if (doubtArm != Doubt.NO_DRAW) {
        keys.add(Doubt.LEDGER_KEY);
      }
      int directionsArm = DirectionsUse.drawn(retrieval.annotations());
      if (directionsArm != DirectionsUse.NO_DRAW) {
        keys.add(DirectionsUse.LEDGER_KEY);
      }
      int textArm = TextAlone.drawn(retrieval.annotations());
      if (textArm != TextAlone.NO_DRAW) {
        keys.add(TextAlone.LEDGER_KEY);
      }
      boolean neighbours = config.taskLearning() == MemLoopConfig.TaskLearning.NEIGHBOURS;
      Map<String, Double> cosine = new HashMap<>(); // credited memory → its cosine to this retrieval's query
      if (neighbours && !credited.isEmpty()) {
        for (io.memloop.Candidate c : retrieval.candidates()) {
          if (credited.contains(c.memoryId())) {
            cosine.put(c.memoryId(), c.similarity());
            keys.add(LedgerKeys.uses(c.memoryId()));
          }
        }
      }
      Map<String, double[]> entries = store.ledger(namespace, keys);
      Map<String, double[]> out = new HashMap<>();
      double[] t = entries.getOrDefault(taskKey, new double[2]);
      double[] rec = entries.getOrDefault("r", new double[2]); // [rewarded retrievals, of tasks rewarded before]
      out.put("r", new double[] {rec[0] + 1, rec[1] + (entries.containsKey(taskKey) ? 1 : 0)});
      long tick = (long) rec[0] + 1;
      out.put(taskKey, new double[] {success ? 0 : t[0] + 1, t[1] + (note.explored().isEmpty() ? 0 : 1), tick});
      double[] n = entries.getOrDefault("n", new double[4]).clone();
      if (!note.explored().isEmpty()) {
        n[0]++;
        n[1] += unit;
      } else if (note.explorable()) { // could have explored, and the draw said no
        n[2]++;
        n[3] += unit;
      }
      out.put("n", n);
      if (noteDepth != TaskNote.NO_DRAW) { // [full notes shown, their summed success, shortened notes shown, their summed success]
        double[] d = entries.getOrDefault("d", new double[4]).clone();
        int at = noteDepth == TaskNote.WHOLE ? 0 : 2;
        d[at]++;
        d[at + 1] += unit;
        out.put("d", d);
      }
      for (String id : credited) {
        String k = LedgerKeys.pair(note.context(), id);
        out.put(k, new double[] {entries.getOrDefault(k, new double[1])[0] + centred});
        double[] c = entries.getOrDefault(LedgerKeys.credit(id), new double[2]);
        out.put(LedgerKeys.credit(id), success ? new double[] {c[0] + 1, 0} : new double[] {c[0], c[1] + 1});
      }
      if (blockZ != null) {
        out.put(Blocks.LEDGER_KEY, Blocks.update(entries.get(Blocks.LEDGER_KEY), unit, blockZ));
      }
      if (textZ != null) {
        out.put(TextChannel.LEDGER_KEY, Blocks.update(entries.get(TextChannel.LEDGER_KEY), unit, textZ));
      }
      if (doubtArm != Doubt.NO_DRAW) {
        out.put(Doubt.LEDGER_KEY, Doubt.update(entries.get(Doubt.LEDGER_KEY), doubtArm, unit));
      }
      if (directionsArm != DirectionsUse.NO_DRAW) {
        out.put(DirectionsUse.LEDGER_KEY, DirectionsUse.update(entries.get(DirectionsUse.LEDGER_KEY), directionsArm, unit));
      }
      if (textArm != TextAlone.NO_DRAW) {
        out.put(TextAlone.LEDGER_KEY, TextAlone.update(entries.get(TextAlone.LEDGER_KEY), textArm, unit));
      }
      if (similarityQuery != null) {
        learnSimilarity(namespace, similarityQuery, credited, entries.get(Directions.PAIRS_KEY), config, out);
      }
      if (!cosine.isEmpty()) {
        double self = taskHash(note.context());
        for (Map.Entry<String, Double> c : cosine.entrySet()) {
          String k = LedgerKeys.uses(c.getKey());
          double[] before = entries.getOrDefault(k, new double[0]);
          int keep = Math.min(before.length - before.length % USE, USE * (USES_KEPT - 1));
          double[] after = new double[keep + USE];
          System.arraycopy(before, before.length - keep, after, 0, keep);
          after[keep] = self;
          after[keep + 1] = centred;
          after[keep + 2] = c.getValue();
          out.put(k, after);
        }
      }
      store.putLedger(namespace, out);
      sweepIfDue(namespace, tick, entries.get(SWEEP_KEY));
    }
  }

  /**
   * Sweeps when this ledger sweeps and {@code tick} is due after the last sweep's entry {@code g} (null: none yet).
   *
   * @return whether it swept
   */
  boolean sweepIfDue(String namespace, long tick, double @Nullable [] g) {
    if (!sweeps || tick < (g == null || g.length < 2 ? SWEEP_MIN : g[0] + Math.max(SWEEP_MIN, g[1]))) {
      return false;
    }
    sweep(namespace, tick);
    return true;
  }

  /** The ledger entry of the sweep's bookkeeping: [tick of the last sweep, keys it left]. */
  static final String SWEEP_KEY = "g";
  /** Fewest rewarded retrievals between two sweeps; past this many keys, as many as the keys the last one left. */
  static final int SWEEP_MIN = 1024;
  /** Fewest tasks whose entries a sweep keeps: the most recently rewarded. */
  static final int TASKS_KEPT = 65_536;
  /** Tasks whose entries a sweep keeps per memory of the namespace, where that is more than {@link #TASKS_KEPT}. */
  static final int TASKS_PER_MEMORY = 4;

  /**
   * Drops the ledger entries nothing will read again: those of memories that are gone ({@code c:<memory>},
   * {@code u:<memory>}, {@code p:<task>:<memory>}), and those of the tasks rewarded least recently beyond the
   * {@value #TASKS_KEPT} most recent (or {@value #TASKS_PER_MEMORY} per memory of the namespace, if more): their
   * {@code t:<task>} and {@code p:<task>:…}; such a task asked again starts with no record. A task entry written before
   * ticks were kept counts as rewarded now, and gets the current tick.
   * Runs after a reward, in the namespace's lock, once at least {@value #SWEEP_MIN} rewarded retrievals, and as many
   * as the keys the last sweep left, have passed since it: so the ledger at most doubles between sweeps, and a sweep's
   * one listing of keys and one check of which memories they name still exist ({@link MemoryStore#existing}) cost a
   * few key visits per reward, averaged over the rewards between sweeps.
   *
   * @param tick the namespace's rewarded retrievals so far
   * @return how many entries it dropped
   */
  int sweep(String namespace, long tick) {
    Set<String> keys = store.ledgerKeys(namespace);
    List<String> taskKeys = keys.stream().filter(k -> k.startsWith("t:")).toList();
    Map<String, double[]> tasks = store.ledger(namespace, taskKeys);
    Set<String> gone = new HashSet<>();
    Set<String> goneTasks = new HashSet<>();
    Map<String, double[]> stamped = new HashMap<>();
    List<Map.Entry<String, Double>> byTick = new ArrayList<>(tasks.size()); // each task's last reward
    tasks.forEach((k, v) -> {
      if (v.length < 3) {
        double[] w = java.util.Arrays.copyOf(v, 3);
        w[2] = tick;
        stamped.put(k, w);
      }
      byTick.add(Map.entry(k, v.length < 3 ? tick : v[2]));
    });
    long keep = byTick.size() <= TASKS_KEPT ? TASKS_KEPT // within the floor: no need to count the memories
        : Math.max(TASKS_KEPT, TASKS_PER_MEMORY * store.counts(namespace, java.time.Instant.EPOCH).memories());
    if (byTick.size() > keep) { // the newest first; equal ticks by key, so the cut does not depend on listing order
      byTick.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
      for (Map.Entry<String, Double> e : byTick.subList((int) keep, byTick.size())) {
        gone.add(e.getKey());
        goneTasks.add(e.getKey().substring(2));
        stamped.remove(e.getKey());
      }
    }
    Map<String, String> named = new HashMap<>(); // per-memory entry → the memory it names
    for (String k : keys) {
      String memory = LedgerKeys.memory(k);
      if (memory != null) {
        named.put(k, memory);
      }
    }
    Set<String> live = named.isEmpty() ? Set.of() : store.existing(namespace, new HashSet<>(named.values()));
    named.forEach((k, memory) -> {
      int at = k.lastIndexOf(':');
      if (!live.contains(memory) || k.startsWith("p:") && (at <= 2 || goneTasks.contains(k.substring(2, at)))) {
        gone.add(k);
      }
    });
    if (!gone.isEmpty()) {
      store.deleteLedger(namespace, gone);
    }
    stamped.put(SWEEP_KEY, new double[] {tick, keys.size() - gone.size() + (keys.contains(SWEEP_KEY) ? 0 : 1)});
    store.putLedger(namespace, stamped);
    return gone.size();
  }

}
