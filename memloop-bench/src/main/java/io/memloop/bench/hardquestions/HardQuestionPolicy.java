package io.memloop.bench.hardquestions;

import io.memloop.Memory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The frozen policy of the {@link HardQuestionsEnvironment}: a stand-in for an LLM that cannot work
 * the questions out and pattern-matches remembered ones.
 *
 * <p>It reads the shown experiences top-down, as ranked, and considers only those about a question
 * it judges to be the same as its own: at least {@link #SAME_QUESTION_OVERLAP} of the shorter
 * question's distinct words appear in the other. One changed number ("7th" vs "8th") passes that test,
 * so a near-duplicate's verified answer is taken for this question's, the way a model skimming a
 * retrieved example misses that one number differs. A failure note ("Answer X was wrong") marks X to
 * avoid; the first verified answer not marked is given. Nothing usable → a guess among the plausible
 * answers not marked. With probability {@code slipProbability} the policy ignores what it was shown.
 *
 * <p>Reads only the experience text, never the memory's outcome or utility. Stateless apart from its
 * configuration; thread-safe.
 */
public final class HardQuestionPolicy {
  /** Share of the shorter question's distinct words the other must contain to be judged the same. */
  static final double SAME_QUESTION_OVERLAP = 0.85;
  /**
   * Fewest distinct words of any question: with 8, one changed word leaves 7/8 = 0.875 overlap,
   * still above {@link #SAME_QUESTION_OVERLAP}.
   */
  static final int MIN_WORDS = 8;

  static final String QUOTE = "`";
  private static final String QUESTION = "Q: ";
  private static final String VERIFIED = "Verified answer: ";
  private static final String WRONG = " was wrong.";

  /**
   * What the policy makes of what it was shown: a definite answer, or a pool to guess from.
   *
   * @param answer the answer copied from a verified experience, if any
   * @param pool the answers guessed among uniformly when {@code answer} is empty
   */
  record Decision(Optional<String> answer, List<String> pool) {
    Decision {
      pool = List.copyOf(pool);
    }

    /** Whether this decision gives {@code correct} whatever the guess. */
    boolean certainlyGives(String correct) {
      return answer.map(correct::equals).orElse(pool.size() == 1 && pool.getFirst().equals(correct));
    }
  }

  private final double slipProbability;

  HardQuestionPolicy(double slipProbability) {
    if (!(slipProbability >= 0 && slipProbability < 1)) {
      throw new IllegalArgumentException("slipProbability must be in [0, 1), got " + slipProbability);
    }
    this.slipProbability = slipProbability;
  }

  /** The answer the policy gives to {@code question}, whose plausible answers are {@code options}. */
  String answer(String question, List<String> options, List<Memory> shown, RandomGenerator rnd) {
    Decision d =
        shown.isEmpty() || (slipProbability > 0 && rnd.nextDouble() < slipProbability)
            ? new Decision(Optional.empty(), options)
            : decide(question, options, shown);
    return d.answer().orElseGet(() -> d.pool().get(rnd.nextInt(d.pool().size())));
  }

  /** The deterministic part of {@link #answer}: what the shown experiences lead to, without slips. */
  static Decision decide(String question, List<String> options, List<Memory> shown) {
    Set<String> words = words(question);
    Set<String> avoid = new HashSet<>();
    for (String experience : Memory.partsOf(shown)) {
      Optional<String> remembered = question(experience);
      Optional<String> quoted = quoted(experience);
      if (remembered.isEmpty() || quoted.isEmpty() || !sameQuestion(words, words(remembered.get()))) {
        continue;
      }
      if (experience.contains(VERIFIED) && !avoid.contains(quoted.get())) {
        return new Decision(quoted, List.of());
      }
      if (experience.contains(WRONG)) {
        avoid.add(quoted.get());
      }
    }
    List<String> pool = new ArrayList<>(options.size());
    for (String o : options) {
      if (!avoid.contains(o)) {
        pool.add(o);
      }
    }
    return new Decision(Optional.empty(), pool.isEmpty() ? options : pool);
  }

  public static boolean sameQuestion(Set<String> a, Set<String> b) {
    return overlap(a, b) >= SAME_QUESTION_OVERLAP;
  }

  /** Overlap coefficient |a ∩ b| / min(|a|, |b|) of two word sets (Szymkiewicz–Simpson). */
  static double overlap(Set<String> a, Set<String> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    Set<String> small = a.size() <= b.size() ? a : b;
    Set<String> large = small == a ? b : a;
    int common = 0;
    for (String w : small) {
      common += large.contains(w) ? 1 : 0;
    }
    return (double) common / small.size();
  }

  /** Distinct lower-case words, punctuation trimmed from their ends ("1000?" → "1000"). */
  public static Set<String> words(String text) {
    Set<String> out = new LinkedHashSet<>();
    for (String raw : text.toLowerCase(Locale.ROOT).split("\\s+")) {
      String w = trim(raw);
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  private static String trim(String w) {
    int from = 0;
    int to = w.length();
    while (from < to && !Character.isLetterOrDigit(w.charAt(from))) {
      from++;
    }
    while (to > from && !Character.isLetterOrDigit(w.charAt(to - 1))) {
      to--;
    }
    return w.substring(from, to);
  }

  /** The experience of a correct answer: the question and its verified answer. */
  static String successExperience(String question, String answer) {
    return QUESTION + question + "\n" + VERIFIED + QUOTE + answer + QUOTE;
  }

  /** The experience of a wrong answer: the question and the answer to avoid. */
  static String failureExperience(String question, String answer) {
    return QUESTION + question + "\nAnswer " + QUOTE + answer + QUOTE + WRONG;
  }

  public static Optional<String> question(String experience) {
    if (!experience.startsWith(QUESTION)) {
      return Optional.empty();
    }
    int end = experience.indexOf('\n');
    return Optional.of(experience.substring(QUESTION.length(), end < 0 ? experience.length() : end));
  }

  /** The quoted answer, searched after the question line (a question never contains the quote). */
  static Optional<String> quoted(String experience) {
    int from = Math.max(0, experience.indexOf('\n'));
    int start = experience.indexOf(QUOTE, from);
    int end = start < 0 ? -1 : experience.indexOf(QUOTE, start + 1);
    return end < 0 ? Optional.empty() : Optional.of(experience.substring(start + 1, end));
  }
}
