package io.memloop.policy;

import io.memloop.Candidate;
import io.memloop.MemLoopConfig;
import io.memloop.store.Annotations;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Step 0 of Phase B: the similarity each candidate is ranked by when every vector is the concatenation of
 * {@link MemLoopConfig#similarityBlocks} equal-size blocks, one per embedding model (say a dense model and a lexical
 * one). Which model's similarity puts what helps first differs from one namespace to another (a dense model tells
 * paraphrases apart from other tasks, a lexical one a changed word or number), so each namespace learns it from its
 * own rewards; no weight is set per model or per domain.
 *
 * <p>The similarity is {@code Σ_b w_b · cos_b}: each block's cosine between the query and the memory's intent, weighed
 * by the namespace's block weights. With equal weights and blocks of equal norm (as a concatenating embedder makes
 * them) it is the cosine of the whole vectors, which Phase A recalled by.
 *
 * <p>The rule ({@link #update}, a policy-gradient step on the mixing weights with a running-mean baseline): after a
 * rewarded retrieval whose credited memory (the memories the agent named, else the first success shown) stood at
 * z-scored block cosine {@code z_b} in its pool, each block gains {@code g_b = (u − ū) · z_b}, where {@code u} is the
 * reward scaled to [0, 1] and {@code ū} its mean over the namespace's earlier updates (without it, where most episodes
 * fail, the block that ranked the shown memory first would be blamed for choosing at all). The weights are
 * learned from {@code G_b}, the summed gains, and {@code S}, the summed squared spread of the
 * gains across blocks. Each block's standing is {@code z_b = (G_b − mean G) / sqrt(1 + S / B)}, in standard errors of
 * its evidence; the weights are {@code softmax(2 · sign(z_b) · max(0, |z_b| − 2))}: equal before any evidence and while
 * the blocks stand within two standard errors of each other (where chance alone would tilt them), and a block ahead by
 * more trusted nearly alone (at three standard errors, 0.98 of two blocks' weight). Kept in the ledger as entry {@value #LEDGER_KEY}: {@code [updates, summed u, S, G_1 … G_B]}.
 *
 * <p>What the reward needs is kept with the retrieval as annotation {@value #ANNOTATION} (version {@value #VERSION}):
 * {@code byte B, then for each selected candidate in the order shown B big-endian float32 z-scores}.
 *
 * <p>Ties: none decided here. Randomness: none. Stateless and thread-safe.
 */
public final class Blocks {
  /** The ledger entry of a namespace's block gains. */
  public static final String LEDGER_KEY = "b";
  /** The annotation's name. */
  public static final String ANNOTATION = "blocks";
  /** The annotation's data layout version. */
  public static final int VERSION = 1;
  /** The most blocks a vector may be split into (the bound of {@code similarityBlocks}). */
  public static final int MAX = 64;

  /** How many standard errors of its gain a block must stand from the blocks' mean before it is favoured. */
  static final double NOISE = 2;
  /** How fast trust grows past {@link #NOISE}: the softmax's logit per standard error beyond it. */
  static final double SHARPNESS = 2;

  private Blocks() {}

  /**
   * How many blocks a namespace under {@code config} splits vectors into: {@link MemLoopConfig#similarityBlocks}, or
   * when it is 0 the engine's embedder's {@code embedderBlocks}; 1 (no split) without per-task learning, which keeps
   * the block weights.
   */
  public static int count(MemLoopConfig config, int embedderBlocks) {
    int b = config.similarityBlocks() > 0 ? config.similarityBlocks() : embedderBlocks;
    return config.taskLearning().perTask() ? Math.max(1, b) : 1;
  }

  /** Whether Phase B weighs blocks for {@code query}: the task's view has weights, and the query splits into them. */
  static boolean active(@Nullable TaskView task, float[] query) {
    int b = task == null ? 0 : task.blockWeights().length;
    return b > 1 && query.length % b == 0 && query.length >= b;
  }

  /**
   * The block weights of a namespace whose ledger entry {@value #LEDGER_KEY} is {@code entry} (null: none yet).
   *
   * @return {@code blocks} finite weights in [0, 1] summing to 1; equal when there is no usable entry
   */
  public static double[] weights(double @Nullable [] entry, int blocks) {
    double[] w = new double[blocks];
    if (!fits(entry, blocks)) {
      java.util.Arrays.fill(w, 1.0 / blocks);
      return w;
    }
    double mean = 0;
    for (int b = 0; b < blocks; b++) {
      mean += entry[3 + b] / blocks;
    }
    double se = Math.sqrt(1 + entry[2] / blocks);
    double max = Double.NEGATIVE_INFINITY;
    for (int b = 0; b < blocks; b++) {
      double z = (entry[3 + b] - mean) / se;
      w[b] = SHARPNESS * Math.signum(z) * Math.max(0, Math.abs(z) - NOISE);
      max = Math.max(max, w[b]);
    }
    double sum = 0;
    for (int b = 0; b < blocks; b++) {
      w[b] = Math.exp(w[b] - max);
      sum += w[b];
    }
    for (int b = 0; b < blocks; b++) {
      w[b] /= sum;
    }
    return w;
  }

  /** How many rewards the weights in ledger entry {@code entry} were learned from; 0 without a usable entry. */
  public static long updates(double @Nullable [] entry, int blocks) {
    return fits(entry, blocks) ? (long) entry[0] : 0;
  }

  /** Whether {@code entry} is a ledger entry of {@code blocks} blocks: [n, Σu, S, G_1..G_blocks]. */
  private static boolean fits(double @Nullable [] entry, int blocks) {
    return entry != null && entry.length == 3 + blocks;
  }

  /**
   * The ledger entry after one rewarded retrieval.
   *
   * @param entry the entry before (null: none yet)
   * @param unit the reward scaled to [0, 1]
   * @param z the credited memory's z-scored block cosines in its pool (each clipped to ±{@value Score#Z_CLIP})
   */
  public static double[] update(double @Nullable [] entry, double unit, double[] z) {
    int blocks = z.length;
    double[] e = fits(entry, blocks) ? entry.clone() : new double[3 + blocks];
    double centred = unit - (e[0] > 0 ? e[1] / e[0] : 0.5);
    double mean = 0;
    double[] g = new double[blocks];
    for (int b = 0; b < blocks; b++) {
      g[b] = centred * z[b];
      mean += g[b] / blocks;
    }
    for (int b = 0; b < blocks; b++) {
      e[2] += (g[b] - mean) * (g[b] - mean);
      e[3 + b] += g[b];
    }
    e[0] += 1;
    e[1] += unit;
    return e;
  }

  /**
   * Each pooled candidate's cosine to the query in each block, by pool index then block. A candidate without an
   * intent embedding of the query's length (a logged pool) gets its recorded similarity in every block.
   */
  static double[][] cosines(float[] query, List<PoolEntry> pool, int blocks) {
    int size = query.length / blocks;
    double[][] out = new double[pool.size()][blocks];
    for (int i = 0; i < pool.size(); i++) {
      PoolEntry e = pool.get(i);
      float[] v = e.intentEmbedding();
      for (int b = 0; b < blocks; b++) {
        out[i][b] = v == null || v.length != query.length ? e.similarity() : cosine(query, v, b * size, (b + 1) * size);
      }
    }
    return out;
  }

  /** {@code Σ_b w_b · cos[i][b]} for each candidate. */
  static double[] mix(double[][] cos, double[] w) {
    double[] out = new double[cos.length];
    for (int i = 0; i < cos.length; i++) {
      double s = 0;
      for (int b = 0; b < w.length; b++) {
        s += w[b] * cos[i][b];
      }
      out[i] = s;
    }
    return out;
  }

  /** Each block's cosines z-scored over the pool (clipped, as {@link Score} does), by pool index then block. */
  static double[][] zScores(double[][] cos, int blocks) {
    double[][] out = new double[cos.length][blocks];
    double[] column = new double[cos.length];
    for (int b = 0; b < blocks; b++) {
      for (int i = 0; i < cos.length; i++) {
        column[i] = cos[i][b];
      }
      double[] z = Score.zScoreClipped(column);
      for (int i = 0; i < cos.length; i++) {
        out[i][b] = z[i];
      }
    }
    return out;
  }

  /** The annotation of the selected candidates' z-scores: {@code selectedZ} in the order shown. */
  static Annotations into(Annotations annotations, List<double[]> selectedZ, int blocks) {
    return into(annotations, ANNOTATION, selectedZ, blocks);
  }

  /** {@link #into(Annotations, List, int)} under annotation {@code name} (the layout and version of {@value #ANNOTATION}). */
  static Annotations into(Annotations annotations, String name, List<double[]> selectedZ, int blocks) {
    ByteBuffer buf = ByteBuffer.allocate(1 + selectedZ.size() * blocks * Float.BYTES);
    buf.put((byte) blocks);
    for (double[] z : selectedZ) {
      for (double v : z) {
        buf.putFloat((float) v);
      }
    }
    return annotations.with(name, VERSION, buf.array());
  }

  /**
   * The credited memories' mean z-scored block cosines, read from a rewarded retrieval's annotation; null when it has
   * none, or none of {@code credited} was selected.
   *
   * @throws IllegalArgumentException if the annotation is of another version or malformed
   */
  public static double @Nullable [] creditedZ(Annotations annotations, List<Candidate> candidates, List<String> credited) {
    return creditedZ(annotations, ANNOTATION, candidates, credited);
  }

  /** {@link #creditedZ(Annotations, List, List)} from annotation {@code name} (the layout of {@value #ANNOTATION}). */
  static double @Nullable [] creditedZ(Annotations annotations, String name, List<Candidate> candidates,
      List<String> credited) {
    var entry = annotations.get(name);
    if (entry.isEmpty() || credited.isEmpty()) {
      return null;
    }
    if (entry.get().version() != VERSION) {
      throw new IllegalArgumentException("annotation '" + name + "' has version " + entry.get().version()
          + " (this build reads version " + VERSION + ")");
    }
    byte[] data = entry.get().data();
    List<String> selected = new ArrayList<>();
    for (Candidate c : candidates) {
      if (c.selected()) {
        selected.add(c.memoryId());
      }
    }
    int blocks = data.length < 1 ? 0 : data[0];
    if (blocks < 2 || data.length != 1 + selected.size() * blocks * Float.BYTES) {
      throw new IllegalArgumentException("annotation '" + name + "': " + data.length + " bytes do not hold "
          + selected.size() + " selected candidates' block scores");
    }
    ByteBuffer buf = ByteBuffer.wrap(data, 1, data.length - 1);
    double[] sum = new double[blocks];
    int found = 0;
    for (String id : selected) {
      boolean take = credited.contains(id);
      for (int b = 0; b < blocks; b++) {
        float v = buf.getFloat();
        if (take) {
          sum[b] += v;
        }
      }
      found += take ? 1 : 0;
    }
    if (found == 0) {
      return null;
    }
    for (int b = 0; b < blocks; b++) {
      sum[b] /= found;
    }
    return sum;
  }

  private static double cosine(float[] a, float[] b, int from, int to) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int j = from; j < to; j++) {
      dot += a[j] * b[j];
      na += a[j] * a[j];
      nb += b[j] * b[j];
    }
    return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
  }
}
