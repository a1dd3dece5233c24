package io.memloop.policy;

import io.memloop.Candidate;
import io.memloop.MemLoopConfig;
import io.memloop.Vectors;
import io.memloop.store.Annotations;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Step 0 of Phase B for a task with no record of its own ({@link MemLoopConfig#textSimilarity}): the vectors'
 * similarity and the texts' lexical similarity, weighed by what the namespace's rewards taught it.
 *
 * <p>An embedding model places two tasks by what they mean; what tells one kind of task from a look-alike is often a
 * word or a number (a table's name, a variant phrase) that a dense model hardly moves for. The words a query shares
 * with a memory's intent see exactly that, and miss paraphrases. Which of the two puts what helps first differs from
 * one namespace to another, so each namespace learns it, as {@link Blocks} learns the weights of several models'
 * blocks: no weight is set per model or per domain.
 *
 * <p>The lexical similarity is the cosine of two {@linkplain #vector feature-hashed} bags of the texts' lowercase
 * words, word pairs and character trigrams (the hashing embedder's vector). Over the pool it is put on the scale of
 * the vectors' similarity (the same pool mean and spread), so that equal weights rank by the sum of the two z-scores
 * and the mixed similarity reads as the vectors' does; a candidate without a text (a logged pool) keeps the vectors'
 * similarity in both. The mix is {@code w_v · sim + w_t · text}; the weights are {@link Blocks#weights} of ledger
 * entry {@value #LEDGER_KEY}, learned by {@link Blocks#update} from the credited memory's two z-scores in its pool,
 * kept with the retrieval as annotation {@value #ANNOTATION} in {@link Blocks}' layout (two per selected candidate).
 *
 * <p>Ties: none decided here. Randomness: none. Stateless and thread-safe.
 */
public final class TextChannel {
  /** The ledger entry of a namespace's two similarities' gains ({@link Blocks#update}'s layout, two blocks). */
  public static final String LEDGER_KEY = "w";
  /** The annotation's name. */
  public static final String ANNOTATION = "text";
  /** The two similarities: the vectors' and the texts'. */
  public static final int CHANNELS = 2;
  /** The lexical vector's dimension: buckets of the hashing trick. */
  static final int DIMENSION = 384;

  private TextChannel() {}

  /** Whether a namespace under {@code config} whose vectors have {@code blocks} blocks mixes in the texts' similarity. */
  public static boolean on(MemLoopConfig config, int blocks) {
    return config.textSimilarity() == MemLoopConfig.TextSimilarity.LEARNED && config.taskLearning().perTask()
        && blocks <= 1;
  }

  /**
   * Whether {@code query}, the vector of a task whose text is {@code text}, already is the text's lexical vector (as
   * with the hashing embedder at {@value #DIMENSION} dimensions): then the texts' similarity is the vectors' own, and
   * mixing it in would only undo what the namespace learned of the vectors' similarity.
   */
  public static boolean isTheVector(String text, float[] query) {
    return query.length == DIMENSION && sameDirection(vector(text, DIMENSION), query);
  }

  /** Whether {@code query} points where the unit vector {@code lexical} does (cosine above 0.999). */
  private static boolean sameDirection(float[] lexical, float[] query) {
    double n = Vectors.dot(query, query);
    return query.length == lexical.length && n > 0 && Vectors.dot(lexical, query) / Math.sqrt(n) > 0.999;
  }

  /**
   * What Phase B compares the pool's intent texts with for a task whose text is {@code text} and whose vector is
   * {@code query}: the text's lexical vector, made once per retrieval; null where it is the vector itself
   * ({@link #isTheVector(String, float[])}).
   */
  public static float @Nullable [] queryVector(String text, float[] query) {
    float[] lexical = vector(text, DIMENSION);
    return sameDirection(lexical, query) ? null : lexical;
  }

  /** Whether Phase B mixes the texts in for this retrieval: the view has weights and the query's lexical vector. */
  static boolean active(@Nullable TaskView task) {
    return task != null && task.textWeights().length == CHANNELS && task.queryWords() != null;
  }

  /**
   * By pool index, the cosine of {@code q} to each candidate's intent text's lexical vector; NaN for a candidate
   * without an intent text. The costly part of {@link #similarities}, the same for every ranking of one retrieval.
   *
   * @param q the query's lexical vector ({@link #queryVector})
   */
  static double[] lexical(float[] q, List<PoolEntry> pool) {
    double[] lex = new double[pool.size()];
    for (int i = 0; i < lex.length; i++) {
      PoolEntry e = pool.get(i);
      lex[i] = e.memory() != null && !e.memory().intentText().isEmpty()
          ? Vectors.dot(q, intentVector(e.memory().intentText())) : Double.NaN;
    }
    return lex;
  }

  /** Most intent texts {@link #intentVector} keeps the vector of; past it, it starts again from none. */
  static final int INTENT_VECTORS_KEPT = 4096;

  /** Intent text → its lexical vector ({@link #vector}), bounded by {@link #INTENT_VECTORS_KEPT}. */
  private static final Kept<String, float[]> INTENT_VECTORS = new Kept<>(INTENT_VECTORS_KEPT);

  /** How many intent texts {@link #intentVector} keeps now. */
  static int intentVectorsKept() {
    return INTENT_VECTORS.size();
  }

  /**
   * The lexical vector of a pooled memory's intent text, {@link #vector} at {@link #DIMENSION}, kept for the next
   * retrievals: the same memories come back in pool after pool, and making the vector was most of ranking by the
   * texts. The vector depends on the text alone, so keeping it changes nothing but the cost; a text edited is
   * another key. At most {@link #INTENT_VECTORS_KEPT} are kept (about 6 MiB); when full, the map is emptied and
   * fills again with the texts in use. The returned array is shared: read it only.
   */
  static float[] intentVector(String text) {
    return INTENT_VECTORS.get(text, UnaryOperator.identity(), t -> vector(t, DIMENSION));
  }

  /**
   * Each pooled candidate's two similarities, by pool index: {@code [sim, text]}, the text's cosine put on the pool's
   * scale of {@code sim} (a candidate without an intent text: {@code sim} in both).
   *
   * @param lexical the query's text's cosines to the candidates' ({@link #lexical})
   */
  static double[][] similarities(double[] lexical, double[] sim) {
    int n = lexical.length;
    double[] lex = new double[n];
    boolean[] has = new boolean[n];
    int count = 0;
    for (int i = 0; i < n; i++) {
      if (!Double.isNaN(lexical[i])) {
        lex[i] = lexical[i];
        has[i] = true;
        count++;
      }
    }
    double sm = 0;
    double lm = 0;
    for (int i = 0; i < n; i++) {
      if (has[i]) {
        sm += sim[i] / count;
        lm += lex[i] / count;
      }
    }
    double ss = 0;
    double ls = 0;
    for (int i = 0; i < n; i++) {
      if (has[i]) {
        ss += (sim[i] - sm) * (sim[i] - sm) / count;
        ls += (lex[i] - lm) * (lex[i] - lm) / count;
      }
    }
    double scale = ls > 1e-24 ? Math.sqrt(ss / ls) : 0;
    double[][] out = new double[n][CHANNELS];
    for (int i = 0; i < n; i++) {
      out[i][0] = sim[i];
      out[i][1] = has[i] ? sm + (lex[i] - lm) * scale : sim[i];
    }
    return out;
  }

  /** The annotation of the selected candidates' z-scores, {@code selectedZ} in the order shown. */
  static Annotations into(Annotations annotations, List<double[]> selectedZ) {
    return Blocks.into(annotations, ANNOTATION, selectedZ, CHANNELS);
  }

  /** The credited memories' mean z-scores of the two similarities; null when the retrieval did not mix them. */
  public static double @Nullable [] creditedZ(Annotations annotations, List<Candidate> candidates, List<String> credited) {
    return Blocks.creditedZ(annotations, ANNOTATION, candidates, credited);
  }

  /**
   * The lexical vector of {@code text}: feature hashing ("the hashing trick") of its lowercase words (weight 1), word
   * pairs (1) and character trigrams of each word padded with {@code <} and {@code >} (½) into {@code dimension}
   * signed buckets, L2-normalised; a text without letters or digits is the first unit vector. Deterministic across
   * runs and platforms.
   */
  public static float[] vector(String text, int dimension) {
    float[] v = new float[dimension];
    String previous = null;
    for (String w : words(text)) {
      add(v, "w:" + w, 1.0f);
      if (previous != null) {
        add(v, "b:" + previous + " " + w, 1.0f);
      }
      String padded = "<" + w + ">";
      for (int i = 0; i + 3 <= padded.length(); i++) {
        add(v, "c:" + padded.substring(i, i + 3), 0.5f);
      }
      previous = w;
    }
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    if (norm == 0) {
      v[0] = 1;
      return v;
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }

  private static void add(float[] v, String feature, float weight) {
    long h = mix(fnv1a(feature));
    int bucket = (int) Long.remainderUnsigned(h, v.length);
    v[bucket] += (h >>> 63) == 0 ? weight : -weight;
  }

  /** Lowercase runs of letters and digits. */
  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    String lower = text.toLowerCase(Locale.ROOT);
    for (int i = 0; i < lower.length(); ) {
      int cp = lower.codePointAt(i);
      if (Character.isLetterOrDigit(cp)) {
        cur.appendCodePoint(cp);
      } else if (!cur.isEmpty()) {
        out.add(cur.toString());
        cur.setLength(0);
      }
      i += Character.charCount(cp);
    }
    if (!cur.isEmpty()) {
      out.add(cur.toString());
    }
    return out;
  }

  private static long fnv1a(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** SplitMix64's finaliser: spreads FNV's low-entropy bits over all 64. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
