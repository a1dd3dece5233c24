package io.memloop.bench;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.embed.Embedder;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.embeddings.MiniLmEmbedder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Not a test: a plain-RAG stream loop (every instance remembered, the top k by a ranking shown, the frozen policy
 * attempts) with the ranking swapped, to see how far a ranking or a shown-set change can move first-encounter
 * success before building it into the engine. Per environment and variant it prints the mean success, how often a
 * memory that truly helps is shown (reach) against how often one exists above the gate, and the success when the
 * first shown success experience helps, when a helper is shown but not as the first success, and when none is.
 *
 * <p>Variants ({@code -Dvariants=a,b}): {@code raw} (cosine, newest first: {@code rag}); {@code centered} and
 * {@code standardised} (cosine after subtracting the mean of the intents seen so far, and dividing by their
 * per-dimension spread); {@code demote} (a success experience goes last when the query is at least as near a failed
 * episode that used it as to the memory itself); {@code cluster} and {@code cluster-dedup} (success experiences
 * chained by use into answer clusters, scored by their nearest member, demoted as above, one per cluster);
 * {@code cluster-centroid} (the same clusters scored by the cosine to their members' mean intent); {@code
 * failN-first} / {@code failN-last} (the failure notes among the N most similar shown as one note before or after the
 * top k); {@code kindfail-first} / {@code kindfail-last} (ground truth, a bound: every failure note of the instance's
 * own kind, as one note before or after the top k).
 *
 * <pre>
 * ./mvnw -q -o -pl memloop-bench -am test-compile
 * ./mvnw -q -o -pl memloop-bench dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * java -Dvariants=raw,fail10-last -Dk=3,5 -Dseeds=3001,3002 \
 *     -cp "$(cat /tmp/cp.txt):memloop-bench/target/classes:memloop-bench/target/test-classes" \
 *     io.memloop.bench.StreamReachProbe hashing|minilm [length=1000]
 * </pre>
 */
final class StreamReachProbe {
  private StreamReachProbe() {}

  interface Sim {
    void observe(float[] z);

    double[] score(float[] q, List<float[]> mem);
  }

  static final class Raw implements Sim {
    public void observe(float[] z) {}

    public double[] score(float[] q, List<float[]> mem) {
      double[] s = new double[mem.size()];
      for (int i = 0; i < s.length; i++) {
        s[i] = dot(q, mem.get(i));
      }
      return s;
    }
  }

  /** Centered (mode 1) or per-dimension standardised (mode 2) cosine over the intents seen so far. */
  static final class Stats implements Sim {
    final int mode;
    double[] sum;
    double[] sq;
    int n;

    Stats(int mode) {
      this.mode = mode;
    }

    public void observe(float[] z) {
      if (sum == null) {
        sum = new double[z.length];
        sq = new double[z.length];
      }
      for (int d = 0; d < z.length; d++) {
        sum[d] += z[d];
        sq[d] += z[d] * (double) z[d];
      }
      n++;
    }

    double[] t(float[] v) {
      double[] out = new double[v.length];
      double norm = 0;
      for (int d = 0; d < v.length; d++) {
        double mu = n == 0 ? 0 : sum[d] / n;
        double x = v[d] - mu;
        if (mode == 2 && n > 1) {
          double var = sq[d] / n - mu * mu;
          x /= Math.sqrt(Math.max(var, 0) + 1e-4);
        }
        out[d] = x;
        norm += x * x;
      }
      norm = Math.sqrt(norm);
      for (int d = 0; d < v.length; d++) {
        out[d] /= norm == 0 ? 1 : norm;
      }
      return out;
    }

    public double[] score(float[] q, List<float[]> mem) {
      double[] tq = t(q);
      double[] s = new double[mem.size()];
      for (int i = 0; i < s.length; i++) {
        double[] tm = t(mem.get(i));
        double x = 0;
        for (int d = 0; d < tq.length; d++) {
          x += tq[d] * tm[d];
        }
        s[i] = x;
      }
      return s;
    }
  }

  static int find(int[] root, int x) {
    while (root[x] != x) {
      root[x] = root[root[x]];
      x = root[x];
    }
    return x;
  }

  static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * (double) b[i];
    }
    return s;
  }

  /** Variants run when {@code -Dvariants} is not given: every one the javadoc describes. */
  static final String VARIANTS =
      "raw,centered,standardised,demote,cluster,cluster-dedup,cluster-centroid,fail10-first,fail10-last,"
          + "kindfail-first,kindfail-last";

  public static void main(String[] args) throws Exception {
    String model = args.length > 0 ? args[0] : "hashing";
    int length = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    long[] seeds = Arrays.stream(System.getProperty("seeds", "3001,3002").split(",")).mapToLong(Long::parseLong).toArray();
    List<String> variants = List.of(System.getProperty("variants", VARIANTS).split(","));
    Embedder embedder = model.equals("minilm") ? MiniLmEmbedder.create() : new HashingEmbedder();
    try {
      for (String envName : List.of("recurring-ops", "sql", "text-world", "hard-questions")) {
        for (String kText : System.getProperty("k", "3").split(",")) {
          int k = Integer.parseInt(kText);
          StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-15s k=%d", envName, k));
          for (String variant : variants) {
            Tally tally = new Tally();
            for (long seed : seeds) {
              runStream(envName, seed, length, embedder, variant, k, tally);
            }
            line.append(String.format(Locale.ROOT, "  %s %.3f %s", variant, tally.success / seeds.length, tally));
          }
          System.out.println(line);
        }
      }
    } finally {
      if (embedder instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  /** What one variant did over its seeds. */
  static final class Tally {
    double success; // summed over seeds of each stream's mean success
    int reach; // episodes with a helper among the k shown
    int exists; // episodes with a helper above the gate
    final int[] episodes = new int[3]; // by case: first shown success helps, a helper behind another success, none
    final int[] solved = new int[3];

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "(reach %d/%d) firstHelps %d:%.2f helperLater %d:%.2f none %d:%.2f", reach,
          exists, episodes[0], solved[0] / (double) episodes[0], episodes[1], solved[1] / (double) episodes[1],
          episodes[2], solved[2] / (double) episodes[2]);
    }
  }

  /** One stream of {@code envName} and {@code seed} with the variant's ranking and shown set, into {@code tally}. */
  static void runStream(String envName, long seed, int length, Embedder embedder, String variant, int k, Tally tally)
      throws Exception {
    Environment env = EnvironmentCatalog.named(envName).create(seed, BenchSize.FULL, null, Map.of());
    try {
      StreamWorld world = ((StreamSource) env).stream(seed, new StreamShape(length, 0.5, 1.0 / 3));
      IntentEmbeddings emb = IntentEmbeddings.of(embedder, StreamLoop.intents(world));
      Sim sim = switch (variant) {
        case "centered" -> new Stats(1);
        case "standardised" -> new Stats(2);
        default -> new Raw();
      };
      Store store = new Store();
      for (PriorExperience p : world.priorExperiences()) {
        float[] z = emb.of(new Task("prior", p.intent()));
        store.add(z, memory(store.size(), p.intent(), z, p.experience(), p.outcome()), -1, "prior");
        sim.observe(z);
      }
      long streamSeed = Seeds.derive(Seeds.derive(seed, "policy:" + envName), "stream");
      int solved = 0;
      for (int i = 0; i < world.tasks().size(); i++) {
        StreamTask instance = world.tasks().get(i);
        Task task = instance.task();
        float[] z = emb.of(task);
        sim.observe(z);
        double[] raw = new Raw().score(z, store.vecs);
        double[] s = sim instanceof Raw ? raw : sim.score(z, store.vecs);
        List<Integer> pool = new ArrayList<>();
        for (int j = 0; j < raw.length; j++) {
          if (raw[j] >= 0.5) {
            pool.add(j);
          }
        }
        pool.sort((a, b) -> s[a] != s[b] ? Double.compare(s[b], s[a]) : Integer.compare(b, a));
        if (variant.startsWith("cluster")) {
          pool = byClusters(pool, raw, z, store, variant);
        } else if (variant.equals("demote")) {
          pool = demoted(pool, raw, store);
        }
        List<Memory> shown = new ArrayList<>();
        boolean helps = false;
        boolean any = false;
        for (int r = 0; r < pool.size(); r++) {
          Memory m = store.mems.get(pool.get(r));
          boolean h = world.helps(task, m);
          any |= h;
          if (r < k) {
            shown.add(m);
            helps |= h;
          }
        }
        tally.exists += any ? 1 : 0;
        tally.reach += helps ? 1 : 0;
        if (variant.startsWith("kindfail")) { // ground truth: every failure note of the instance's own kind
          List<String> parts = new ArrayList<>();
          for (int j = store.size() - 1; j >= 0; j--) {
            if (!store.ok.get(j) && store.kinds.get(j).equals(instance.kind())) {
              parts.addAll(store.mems.get(j).parts());
            }
          }
          shown = withNote(shown, parts, z, variant.endsWith("first"));
        } else if (variant.startsWith("fail")) {
          int nearest = Integer.parseInt(variant.substring(4, variant.indexOf('-')));
          List<String> parts = new ArrayList<>();
          for (int r = 0; r < Math.min(nearest, pool.size()); r++) {
            Memory m = store.mems.get(pool.get(r));
            if (m.outcome() == Outcome.FAILURE) {
              parts.addAll(m.parts());
            }
          }
          shown = withNote(shown, parts, z, variant.endsWith("first"));
        }
        Episode e = world.attempt(task, shown, new SplittableRandom(Seeds.derive(streamSeed, 0, i)));
        solved += e.success() ? 1 : 0;
        // the success the policy reads first: the memory per-task learning assumes was used
        Memory firstSuccess = shown.stream().filter(m -> m.outcome() == Outcome.SUCCESS).findFirst().orElse(null);
        int kase = firstSuccess == null ? 2 : world.helps(task, firstSuccess) ? 0 : helps ? 1 : 2;
        tally.episodes[kase]++;
        tally.solved[kase] += e.success() ? 1 : 0;
        int used = firstSuccess == null ? -1 : Integer.parseInt(firstSuccess.id().substring(1));
        store.add(z, memory(store.size(), task.intent(), z, e.experience(), e.success() ? Outcome.SUCCESS : Outcome.FAILURE),
            used, instance.kind());
      }
      tally.success += solved / (double) world.tasks().size();
    } finally {
      if (env instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  /** Every instance remembered, oldest first, with what the probe knows of it. */
  static final class Store {
    final List<float[]> vecs = new ArrayList<>();
    final List<Memory> mems = new ArrayList<>();
    final List<Integer> parent = new ArrayList<>(); // the first success its episode was shown, or -1
    final List<Boolean> ok = new ArrayList<>(); // its episode succeeded
    final List<String> kinds = new ArrayList<>(); // ground truth, for the bounds only

    void add(float[] z, Memory m, int usedMemory, String kind) {
      vecs.add(z);
      mems.add(m);
      parent.add(usedMemory);
      ok.add(m.outcome() == Outcome.SUCCESS);
      kinds.add(kind);
    }

    int size() {
      return mems.size();
    }
  }

  /** {@code demote}: a success goes last when a failed episode that used it is at least as near the query. */
  static List<Integer> demoted(List<Integer> pool, double[] raw, Store store) {
    double[] opposed = new double[raw.length];
    Arrays.fill(opposed, -2);
    for (int f = 0; f < raw.length; f++) {
      if (!store.ok.get(f) && store.parent.get(f) >= 0) {
        opposed[store.parent.get(f)] = Math.max(opposed[store.parent.get(f)], raw[f]);
      }
    }
    List<Integer> keep = new ArrayList<>();
    List<Integer> last = new ArrayList<>();
    for (int j : pool) {
      (store.ok.get(j) && opposed[j] >= raw[j] ? last : keep).add(j);
    }
    keep.addAll(last);
    return keep;
  }

  /**
   * {@code cluster*}: successes chained by use (a success whose episode was shown another success joins its
   * cluster), each scored by its cluster's nearest member (or, {@code -centroid}, the cosine to the members' mean
   * intent), demoted when a failed use of the cluster is at least as near; {@code -dedup} keeps one per cluster.
   */
  static List<Integer> byClusters(List<Integer> pool, double[] raw, float[] z, Store store, String variant) {
    int n = raw.length;
    int[] root = new int[n];
    for (int j = 0; j < n; j++) {
      root[j] = j;
    }
    for (int j = 0; j < n; j++) {
      if (store.ok.get(j) && store.parent.get(j) >= 0) {
        root[find(root, j)] = find(root, store.parent.get(j));
      }
    }
    Map<Integer, Double> nearest = new HashMap<>();
    Map<Integer, Double> opposed = new HashMap<>();
    Map<Integer, double[]> sum = new HashMap<>();
    for (int j = 0; j < n; j++) {
      if (store.ok.get(j)) {
        int c = find(root, j);
        nearest.merge(c, raw[j], Math::max);
        double[] v = sum.computeIfAbsent(c, x -> new double[z.length]);
        float[] intent = store.vecs.get(j);
        for (int d = 0; d < intent.length; d++) {
          v[d] += intent[d];
        }
      } else if (store.parent.get(j) >= 0) {
        opposed.merge(find(root, store.parent.get(j)), raw[j], Math::max);
      }
    }
    boolean centroid = variant.contains("centroid");
    double[] score = new double[n];
    boolean[] last = new boolean[n];
    for (int j : pool) {
      if (!store.ok.get(j)) {
        score[j] = raw[j];
        continue;
      }
      int c = find(root, j);
      score[j] = centroid ? cosine(sum.get(c), z) : nearest.get(c);
      last[j] = opposed.getOrDefault(c, -2.0) >= score[j];
    }
    List<Integer> sorted = new ArrayList<>(pool);
    sorted.sort((a, b) -> last[a] != last[b] ? (last[a] ? 1 : -1)
        : score[a] != score[b] ? Double.compare(score[b], score[a]) : Double.compare(raw[b], raw[a]));
    if (!variant.endsWith("dedup")) {
      return sorted;
    }
    Set<Integer> seen = new HashSet<>();
    List<Integer> onePerCluster = new ArrayList<>();
    for (int j : sorted) {
      if (!store.ok.get(j) || seen.add(find(root, j))) {
        onePerCluster.add(j);
      }
    }
    return onePerCluster;
  }

  static double cosine(double[] v, float[] unit) {
    double dot = 0;
    double norm = 0;
    for (int d = 0; d < v.length; d++) {
      dot += v[d] * unit[d];
      norm += v[d] * v[d];
    }
    return dot / Math.sqrt(norm);
  }

  /** {@code shown} with {@code parts} as one failure note, first or last; {@code shown} itself when there are none. */
  static List<Memory> withNote(List<Memory> shown, List<String> parts, float[] z, boolean first) {
    if (parts.isEmpty()) {
      return shown;
    }
    List<Memory> out = new ArrayList<>(shown);
    out.add(first ? 0 : out.size(), memory(-1, "merged", z, String.join(Memory.PART_SEPARATOR, parts), Outcome.FAILURE));
    return out;
  }

  static Memory memory(int i, String intent, float[] z, String experience, Outcome outcome) {
    Instant t = Instant.EPOCH.plusSeconds(i);
    return new Memory("m" + i, "ns", "i" + i, intent, z, experience, outcome, 0, 0, t, t);
  }
}
