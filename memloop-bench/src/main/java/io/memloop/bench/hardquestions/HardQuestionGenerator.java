package io.memloop.bench.hardquestions;

import io.memloop.bench.Seeds;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Draws the questions of a {@link HardQuestionsEnvironment} by rejection sampling, so that what the
 * policy reads as "the same question" is controlled exactly: a question and its near-duplicate twin
 * (one word changed, another answer) overlap at or above {@link HardQuestionPolicy#SAME_QUESTION_OVERLAP};
 * every other two questions stay below it, so no accidental near-duplicates exist. A held-out
 * question is a training question re-asked with a short preamble: it contains the original's words, so
 * the original's verified answer (and its twin's, wrongly) applies to it.
 */
final class HardQuestionGenerator {
  /** Plausible answers per question, the correct one included: a blind guess is right 1 time in 10. */
  static final int OPTIONS = 10;

  private static final int ATTEMPTS_PER_QUESTION = 2_000;
  private static final List<String> PREAMBLES =
      List.of("Quick check:", "Asked again by a colleague:", "From last week's quiz:", "Revisiting an earlier puzzle:",
          "One more time, please:");

  /**
   * One generated question.
   *
   * @param twinId the id of its near-duplicate, {@code ""} if it has none
   * @param sourceId for a held-out question, the training question it re-asks; {@code ""} otherwise
   */
  record Question(Task task, String answer, List<String> options, String twinId, String sourceId) {
    Question {
      options = List.copyOf(options);
      if (!options.contains(answer)) {
        throw new IllegalArgumentException("options of " + task.id() + " lack its answer " + answer);
      }
    }
  }

  /** Training questions (in a seeded order) and held-out ones. */
  record Generated(List<Question> training, List<Question> heldOut) {}

  private record Draft(String id, String text, Set<String> words, String answer, String twinId, String group,
      HardQuestionTemplate template, List<String> values) {}

  private HardQuestionGenerator() {}

  static Generated generate(long seed, int questions, int pairs, int heldOut) {
    assert 2 * pairs <= questions : "pairs=" + pairs + ", questions=" + questions;
    SplittableRandom rnd = new SplittableRandom(seed);
    long worldSeed = Seeds.derive(seed, "facts");
    List<HardQuestionTemplate> templates = shuffled(HardQuestionTemplates.ALL, rnd);
    List<Draft> drafts = new ArrayList<>();
    int next = 0; // round-robin over templates, so domains stay balanced
    for (int i = 0; i < questions - pairs; i++) {
      boolean paired = i < pairs;
      boolean done = false;
      for (int attempt = 0; attempt < ATTEMPTS_PER_QUESTION && !done; attempt++) {
        HardQuestionTemplate t = templates.get(next++ % templates.size());
        done = tryAdd(t, "hq/" + t.key() + "/" + i, paired, drafts, worldSeed, rnd);
      }
      if (!done) {
        throw new IllegalStateException(
            "could not draw question " + (i + 1) + " of " + (questions - pairs) + " distinct questions (" + pairs
                + " with a twin) after " + ATTEMPTS_PER_QUESTION + " attempts: the catalogue of "
                + templates.size() + " templates is too small for this size");
      }
    }
    List<Question> training = new ArrayList<>();
    for (Draft d : drafts) {
      training.add(new Question(new Task(d.id(), d.text()), d.answer(), options(d, drafts, worldSeed, rnd), d.twinId(),
          ""));
    }
    return new Generated(shuffled(training, rnd), reworded(training, drafts, heldOut, rnd));
  }

  private static boolean tryAdd(HardQuestionTemplate t, String id, boolean paired, List<Draft> drafts, long worldSeed,
      RandomGenerator rnd) {
    int phrasing = rnd.nextInt(t.phrasings().size());
    List<String> values = t.sample(rnd);
    Optional<String> answer = t.solver().solve(values, worldSeed);
    if (answer.isEmpty()) {
      return false;
    }
    String text = t.render(phrasing, values);
    Set<String> words = HardQuestionPolicy.words(text);
    if (words.size() < HardQuestionPolicy.MIN_WORDS) {
      throw new IllegalStateException("template " + t.key() + " renders fewer than " + HardQuestionPolicy.MIN_WORDS
          + " distinct words: " + text);
    }
    if (clashes(words, drafts, "")) {
      return false;
    }
    if (!paired) {
      drafts.add(new Draft(id, text, words, answer.get(), "", id, t, values));
      return true;
    }
    for (int attempt = 0; attempt < 50; attempt++) {
      List<String> twinValues = t.resample(values, rnd.nextInt(values.size()), rnd);
      Optional<String> twinAnswer = t.solver().solve(twinValues, worldSeed);
      if (twinValues.equals(values) || twinAnswer.isEmpty() || twinAnswer.get().equals(answer.get())) {
        continue;
      }
      String twinText = t.render(phrasing, twinValues);
      Set<String> twinWords = HardQuestionPolicy.words(twinText);
      if (!HardQuestionPolicy.sameQuestion(words, twinWords) || clashes(twinWords, drafts, "")) {
        continue;
      }
      String twinId = id + "-twin";
      drafts.add(new Draft(id, text, words, answer.get(), twinId, id, t, values));
      drafts.add(new Draft(twinId, twinText, twinWords, twinAnswer.get(), id, id, t, twinValues));
      return true;
    }
    return false;
  }

  /** Whether {@code words} reads as the same question as any draft outside {@code group}. */
  private static boolean clashes(Set<String> words, List<Draft> drafts, String group) {
    for (Draft d : drafts) {
      if (!d.group().equals(group) && HardQuestionPolicy.sameQuestion(words, d.words())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The correct answer, the twin's answer (the most plausible wrong one) and answers of the same
   * template with one slot drawn again, then with all drawn again, up to {@link #OPTIONS}; numeric
   * neighbours fill any gap.
   */
  private static List<String> options(Draft d, List<Draft> drafts, long worldSeed, RandomGenerator rnd) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    out.add(d.answer());
    drafts.stream().filter(o -> o.id().equals(d.twinId())).forEach(o -> out.add(o.answer()));
    for (int attempt = 0; attempt < 200 && out.size() < OPTIONS; attempt++) {
      List<String> values = d.template().resample(d.values(), rnd.nextInt(d.values().size()), rnd);
      d.template().solver().solve(values, worldSeed).ifPresent(out::add);
    }
    for (int attempt = 0; attempt < 500 && out.size() < OPTIONS; attempt++) { // one slot may reach too few
      d.template().solver().solve(d.template().sample(rnd), worldSeed).ifPresent(out::add);
    }
    for (int delta = 1; out.size() < OPTIONS; delta++) {
      out.add(neighbour(d.answer(), delta));
      out.add(neighbour(d.answer(), -delta));
    }
    List<String> options = new ArrayList<>(out).subList(0, OPTIONS);
    return shuffled(options, rnd);
  }

  private static String neighbour(String answer, int delta) {
    try {
      return Long.toString(Long.parseLong(answer) + delta);
    } catch (NumberFormatException notALong) {
      return answer + " (" + (delta > 0 ? "+" : "") + delta + ")";
    }
  }

  private static List<Question> reworded(List<Question> training, List<Draft> drafts, int heldOut, RandomGenerator rnd) {
    List<Question> out = new ArrayList<>();
    List<Draft> taken = new ArrayList<>(drafts); // re-askings must not clash with each other either
    for (Question q : shuffled(training, rnd)) {
      if (out.size() == heldOut) {
        break;
      }
      Draft source = drafts.stream().filter(d -> d.id().equals(q.task().id())).findFirst().orElseThrow();
      String text = PREAMBLES.get(rnd.nextInt(PREAMBLES.size())) + " " + q.task().intent();
      Set<String> words = HardQuestionPolicy.words(text);
      if (clashes(words, taken, source.group())) {
        continue;
      }
      String id = q.task().id() + "/reworded";
      taken.add(new Draft(id, text, words, q.answer(), q.twinId(), source.group(), source.template(), source.values()));
      out.add(new Question(new Task(id, text), q.answer(), q.options(), q.twinId(), q.task().id()));
    }
    return out;
  }

  private static <T> List<T> shuffled(List<T> list, RandomGenerator rnd) {
    List<T> copy = new ArrayList<>(list);
    Collections.shuffle(copy, rnd);
    return copy;
  }
}
