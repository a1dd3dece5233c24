package io.memloop.bench;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.embed.Embedder;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.embeddings.MiniLmEmbedder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

  public static void main(String[] args) throws Exception {
    String model = args.length > 0 ? args[0] : "hashing";
    int length = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    long[] seeds = java.util.Arrays.stream(System.getProperty("seeds", "3001,3002").split(",")).mapToLong(Long::parseLong).toArray();
    Embedder embedder = model.equals("minilm") ? MiniLmEmbedder.create() : new HashingEmbedder();
    for (String envName : List.of("recurring-ops", "sql", "text-world", "hard-questions")) {
      for (String kText : System.getProperty("k", "3").split(",")) {
        int k = Integer.parseInt(kText);
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-15s k=%d", envName, k));
        for (String simName : List.of(System.getProperty("variants", "raw,centered,standardised,demote,cluster,cluster-centroid,fail10-first,fail10-last,kindfail-first,kindfail-last").split(","))) {
          double total = 0;
          int reach = 0;
          int exists = 0;
          int[] catN = new int[3];
          int[] catS = new int[3];
          for (long seed : seeds) {
            Environment env = EnvironmentCatalog.named(envName).create(seed, BenchSize.FULL, null, java.util.Map.of());
            StreamWorld world = ((StreamSource) env).stream(seed, new StreamShape(length, 0.5, 1.0 / 3));
            IntentEmbeddings emb = IntentEmbeddings.of(embedder, StreamLoop.intents(world));
            Sim sim = switch (simName) {
              case "centered" -> new Stats(1);
              case "standardised" -> new Stats(2);
              default -> new Raw();
            };
            List<float[]> vecs = new ArrayList<>();
            List<Memory> mems = new ArrayList<>();
            List<Integer> parent = new ArrayList<>();
            List<Boolean> ok = new ArrayList<>();
            List<String> kinds = new ArrayList<>();
            for (PriorExperience p : world.priorExperiences()) {
              float[] z = emb.of(new Task("prior", p.intent()));
              vecs.add(z);
              mems.add(memory(mems.size(), p.intent(), z, p.experience(), p.outcome()));
              parent.add(-1);
              kinds.add("prior");
              ok.add(p.outcome() == Outcome.SUCCESS);
              sim.observe(z);
            }
            long streamSeed = Seeds.derive(Seeds.derive(seed, "policy:" + envName), "stream");
            int solved = 0;
            for (int i = 0; i < world.tasks().size(); i++) {
              Task task = world.tasks().get(i).task();
              float[] z = emb.of(task);
              sim.observe(z);
              double[] raw = new Raw().score(z, vecs);
              double[] s = sim.score(z, vecs);
              List<Integer> pool = new ArrayList<>();
              for (int j = 0; j < raw.length; j++) {
                if (raw[j] >= 0.5) {
                  pool.add(j);
                }
              }
              pool.sort((a, b) -> s[a] != s[b] ? Double.compare(s[b], s[a]) : Integer.compare(b, a));
              if (simName.startsWith("cluster")) {
                int nn = raw.length;
                int[] root = new int[nn];
                for (int j = 0; j < nn; j++) {
                  root[j] = j;
                }
                for (int j = 0; j < nn; j++) {
                  if (ok.get(j) && parent.get(j) >= 0) {
                    int a = find(root, j);
                    int b = find(root, parent.get(j));
                    root[a] = b;
                  }
                }
                java.util.Map<Integer, Double> pos = new java.util.HashMap<>();
                java.util.Map<Integer, Double> neg = new java.util.HashMap<>();
                for (int j = 0; j < nn; j++) {
                  if (ok.get(j)) {
                    pos.merge(find(root, j), raw[j], Math::max);
                  } else if (parent.get(j) >= 0) {
                    neg.merge(find(root, parent.get(j)), raw[j], Math::max);
                  }
                }
                java.util.Map<Integer, double[]> centroid = new java.util.HashMap<>();
                if (simName.contains("centroid")) {
                  for (int j = 0; j < nn; j++) {
                    if (ok.get(j)) {
                      double[] c = centroid.computeIfAbsent(find(root, j), x -> new double[z.length]);
                      float[] v = vecs.get(j);
                      for (int d = 0; d < v.length; d++) {
                        c[d] += v[d];
                      }
                    }
                  }
                }
                double[] eff = new double[nn];
                boolean[] bad = new boolean[nn];
                for (int j : pool) {
                  if (ok.get(j)) {
                    int c = find(root, j);
                    eff[j] = pos.get(c);
                    if (simName.contains("centroid")) {
                      double[] cv = centroid.get(c);
                      double dotc = 0;
                      double norm = 0;
                      for (int d = 0; d < cv.length; d++) {
                        dotc += cv[d] * z[d];
                        norm += cv[d] * cv[d];
                      }
                      eff[j] = dotc / Math.sqrt(norm);
                    }
                    bad[j] = !simName.contains("nodemote") && neg.getOrDefault(c, -2.0) >= eff[j];
                  } else {
                    eff[j] = raw[j];
                  }
                }
                List<Integer> sorted = new ArrayList<>(pool);
                sorted.sort((a, b) -> bad[a] != bad[b] ? (bad[a] ? 1 : -1)
                    : eff[a] != eff[b] ? Double.compare(eff[b], eff[a]) : Double.compare(raw[b], raw[a]));
                if (simName.endsWith("dedup")) {
                  java.util.Set<Integer> seenC = new java.util.HashSet<>();
                  List<Integer> d = new ArrayList<>();
                  for (int j : sorted) {
                    if (!ok.get(j) || seenC.add(find(root, j))) {
                      d.add(j);
                    }
                  }
                  sorted = d;
                }
                pool = sorted;
              } else if (simName.startsWith("demote")) {
                double margin = simName.equals("demote-margin") ? 0.02 : 0;
                double[] opp = new double[raw.length];
                java.util.Arrays.fill(opp, -2);
                for (int f = 0; f < raw.length; f++) {
                  if (!ok.get(f) && parent.get(f) >= 0) {
                    opp[parent.get(f)] = Math.max(opp[parent.get(f)], raw[f]);
                  }
                }
                List<Integer> keep = new ArrayList<>();
                List<Integer> demoted = new ArrayList<>();
                for (int j : pool) {
                  (ok.get(j) && opp[j] + margin >= raw[j] ? demoted : keep).add(j);
                }
                pool = keep;
                if (!simName.equals("demote-drop")) {
                  pool.addAll(demoted);
                }
              }
              List<Memory> shown = new ArrayList<>();
              boolean helps = false;
              boolean any = false;
              for (int r = 0; r < pool.size(); r++) {
                Memory m = mems.get(pool.get(r));
                boolean h = world.helps(task, m);
                any |= h;
                if (r < k) {
                  shown.add(m);
                  helps |= h;
                }
              }
              exists += any ? 1 : 0;
              if (simName.startsWith("kindfail")) { // ground truth: every failure note of the instance's own kind
                List<String> parts = new ArrayList<>();
                String kind = world.tasks().get(i).kind();
                for (int j = mems.size() - 1; j >= 0; j--) {
                  if (!ok.get(j) && kinds.get(j).equals(kind)) {
                    parts.addAll(mems.get(j).parts());
                  }
                }
                if (!parts.isEmpty()) {
                  shown = new ArrayList<>(shown);
                  Memory merged = memory(-1, "merged", z, String.join(Memory.PART_SEPARATOR, parts), Outcome.FAILURE);
                  if (simName.endsWith("first")) {
                    shown.add(0, merged);
                  } else {
                    shown.add(merged);
                  }
                }
              }
              if (simName.startsWith("fail")) {
                int nf = Integer.parseInt(simName.substring(4, simName.indexOf('-')));
                List<String> parts = new ArrayList<>();
                for (int r = 0; r < Math.min(nf, pool.size()); r++) {
                  Memory m = mems.get(pool.get(r));
                  if (m.outcome() == Outcome.FAILURE) {
                    parts.addAll(m.parts());
                  }
                }
                if (!parts.isEmpty()) {
                  Memory merged = memory(-1, "merged", z, String.join(Memory.PART_SEPARATOR, parts), Outcome.FAILURE);
                  shown = new ArrayList<>(shown);
                  if (simName.endsWith("first")) {
                    shown.add(0, merged);
                  } else {
                    shown.add(merged);
                  }
                }
              }
              reach += helps ? 1 : 0;
              Episode e = world.attempt(task, shown, new SplittableRandom(Seeds.derive(streamSeed, 0, i)));
              solved += e.success() ? 1 : 0;
              int cat = 2;
              for (Memory m : shown) {
                if (m.outcome() == Outcome.SUCCESS) {
                  cat = world.helps(task, m) ? 0 : (helps ? 1 : 2);
                  break;
                }
              }
              if (cat == 2 && helps) cat = 1;
              catN[cat]++;
              catS[cat] += e.success() ? 1 : 0;
              int used = -1;
              for (Memory m : shown) {
                if (m.outcome() == Outcome.SUCCESS) {
                  used = Integer.parseInt(m.id().substring(1));
                  break;
                }
              }
              parent.add(used);
              kinds.add(world.tasks().get(i).kind());
              ok.add(e.success());
              vecs.add(z);
              mems.add(memory(mems.size(), task.intent(), z, e.experience(), e.success() ? Outcome.SUCCESS : Outcome.FAILURE));
            }
            total += solved / (double) world.tasks().size();
            if (env instanceof AutoCloseable c) {
              c.close();
            }
          }
          line.append(String.format(Locale.ROOT, "  %s %.3f (reach %d/%d) firstHelps %d:%.2f helperLater %d:%.2f none %d:%.2f", simName, total / seeds.length, reach, exists,
              catN[0], catS[0] / (double) catN[0], catN[1], catS[1] / (double) catN[1], catN[2], catS[2] / (double) catN[2]));
        }
        System.out.println(line);
      }
    }
    if (embedder instanceof AutoCloseable c) {
      c.close();
    }
  }

  static Memory memory(int i, String intent, float[] z, String experience, Outcome outcome) {
    Instant t = Instant.EPOCH.plusSeconds(i);
    return new Memory("m" + i, "ns", "i" + i, intent, z, experience, outcome, 0, 0, t, t);
  }
}
