package io.memloop.bench.hardquestions;

import io.memloop.Memory;
import io.memloop.bench.Environment;
import io.memloop.bench.Episode;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamSource;
import io.memloop.bench.StreamWorld;
import io.memloop.bench.Task;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.LlmPrompts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Recurring hard questions, HLE-like (MemRL evaluates on Humanity's Last Exam): each question has one
 * verifiable answer that the frozen policy cannot work out (a blind guess among
 * {@link HardQuestionGenerator#OPTIONS} plausible answers is right one time in ten) and can only
 * learn by being shown a verified answer to the same question.
 *
 * <p>Questions come from varied templates and domains ({@link HardQuestionTemplates}), so different
 * questions share few words. The distractors are near-duplicate pairs: the same question with one
 * number or name changed and another answer ("the 7th prime after 1000" vs "the 8th"). The
 * {@link HardQuestionPolicy} takes a near-duplicate's verified answer for its own, so a twin's success
 * ranked first makes the attempt fail. Held-out questions re-ask training questions with a short
 * preamble: their right experience is the original's verified answer, their distractor the original
 * twin's.
 *
 * <p>The same questions, in one seeded order, recur every epoch. Immutable and thread-safe.
 */
public final class HardQuestionsEnvironment implements Environment, GroundTruth, StreamSource {
  public static final String NAME = "hard-questions";
  public static final double DEFAULT_SLIP = 0.05;

  /**
   * Size and difficulty.
   *
   * @param questions training questions, near-duplicates included
   * @param duplicateShare fraction of the training questions that are one of a near-duplicate pair
   *     (rounded down to whole pairs)
   * @param heldOut held-out questions (re-asked training questions), at most {@code questions}
   * @param slipProbability chance that the policy ignores what it is shown and guesses blind
   */
  public record Knobs(int questions, double duplicateShare, int heldOut, double slipProbability) {
    /** Largest {@code questions} the catalogue reliably supports with the default share of twins. */
    static final int MAX_QUESTIONS = 150;

    public Knobs {
      if (questions < 1 || questions > MAX_QUESTIONS) {
        throw new IllegalArgumentException("questions must be in [1, " + MAX_QUESTIONS + "], got " + questions);
      }
      if (!(duplicateShare >= 0 && duplicateShare <= 1)) {
        throw new IllegalArgumentException("duplicateShare must be in [0, 1], got " + duplicateShare);
      }
      if (heldOut < 0 || heldOut > questions) {
        throw new IllegalArgumentException("heldOut must be in [0, questions=" + questions + "], got " + heldOut);
      }
      if (!(slipProbability >= 0 && slipProbability < 1)) {
        throw new IllegalArgumentException("slipProbability must be in [0, 1), got " + slipProbability);
      }
    }

    public static Knobs defaults() {
      return new Knobs(60, 0.5, 12, DEFAULT_SLIP);
    }

    /** The same knobs with another outcome noise. */
    public Knobs withSlip(double slip) {
      return new Knobs(questions, duplicateShare, heldOut, slip);
    }

    int pairs() {
      return (int) Math.floor(duplicateShare * questions / 2);
    }
  }

  /** Two training questions that read the same to the policy but have different answers. */
  public record Pair(Task first, Task second) {}

  private final Knobs knobs;
  private final List<Task> tasks;
  private final List<Task> heldOut;
  private final Map<String, HardQuestionGenerator.Question> questions;
  private final HardQuestionPolicy policy;

  private HardQuestionsEnvironment(Knobs knobs, HardQuestionGenerator.Generated generated) {
    this.knobs = knobs;
    this.tasks = generated.training().stream().map(HardQuestionGenerator.Question::task).toList();
    this.heldOut = generated.heldOut().stream().map(HardQuestionGenerator.Question::task).toList();
    Map<String, HardQuestionGenerator.Question> byId = new HashMap<>();
    generated.training().forEach(q -> byId.put(q.task().id(), q));
    generated.heldOut().forEach(q -> byId.put(q.task().id(), q));
    this.questions = Map.copyOf(byId);
    this.policy = new HardQuestionPolicy(knobs.slipProbability());
  }

  /** Same seed and knobs, same questions, answers, options, order and held-out questions. */
  public static HardQuestionsEnvironment generate(long seed, Knobs knobs) {
    return new HardQuestionsEnvironment(
        knobs, HardQuestionGenerator.generate(seed, knobs.questions(), knobs.pairs(), knobs.heldOut()));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Task> tasks() {
    return tasks;
  }

  @Override
  public List<Task> heldOut() {
    return heldOut;
  }

  /**
   * Robustness, not transfer: a question's answer cannot be worked out from another's, so nothing learned
   * on one question carries over to another; the held-out questions re-ask training questions and show
   * whether a question's verified answer is still found when it is asked with a preamble.
   */
  @Override
  public HeldOut heldOutKind() {
    return HeldOut.ROBUSTNESS;
  }

  @Override
  public List<PriorExperience> priorExperiences() {
    return List.of();
  }

  Knobs knobs() {
    return knobs;
  }

  HardQuestionPolicy policy() {
    return policy;
  }

  /**
   * A stream of the training questions asked again, each time with a new one-word tag of where the asking comes
   * from; at the drift a third of the questions' verified answers change. See {@link HardQuestionStream}.
   */
  @Override
  public StreamWorld stream(long seed, StreamShape shape) {
    return HardQuestionStream.generate(this, seed, shape);
  }

  /** Checks the policy's answer against the verified one; reward +1 or −1 as in MemRL. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
    HardQuestionGenerator.Question q = question(task);
    String given = policy.answer(task.intent(), q.options(), shown, rnd);
    boolean success = given.equals(q.answer());
    return new Episode(
        task,
        success,
        success ? 1 : -1,
        success
            ? HardQuestionPolicy.successExperience(task.intent(), given)
            : HardQuestionPolicy.failureExperience(task.intent(), given));
  }

  static final String LLM_SYSTEM = "You answer hard questions whose answers cannot be worked out reliably from the"
      + " question alone. Each question lists candidate answers, exactly one of which is verified correct. Earlier"
      + " experiences record verified answers and answers found wrong: they hold only for the very same question;"
      + " near-duplicate questions (one number or name changed) have other answers. Reply with the chosen answer"
      + " exactly as listed, between backticks, and nothing else.";

  /** The model picks one of the question's options; verified and remembered as the frozen policy's answer. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, LlmPolicy llm, RandomGenerator rnd) {
    HardQuestionGenerator.Question q = question(task);
    String prompt = "Question: " + task.intent() + "\n\nCandidate answers:\n" + LlmPrompts.options(q.options())
        + "\n\n" + LlmPrompts.experiences(shown) + "\n\nWhat is the answer? Reply with it between backticks.";
    return LlmPrompts.decide(llm, rnd, LLM_SYSTEM, prompt, LlmPrompts.oneOf(q.options(), "answer"))
        .episode(task, q.answer()::equals, HardQuestionPolicy::successExperience, HardQuestionPolicy::failureExperience,
            "Q: " + task.intent() + "\nNo answer was given (the reply named none of the options).");
  }

  /** A memory helps when, shown first and alone, it makes the policy give the verified answer. */
  @Override
  public boolean helps(Task task, Memory memory) {
    HardQuestionGenerator.Question q = question(task);
    return HardQuestionPolicy.decide(task.intent(), q.options(), List.of(memory)).certainlyGives(q.answer());
  }

  String answerOf(Task task) {
    return question(task).answer();
  }

  List<String> optionsOf(Task task) {
    return question(task).options();
  }

  /** The near-duplicate of a training question, or of the question a held-out one re-asks. */
  Optional<Task> twinOf(Task task) {
    String twinId = question(task).twinId();
    return twinId.isEmpty() ? Optional.empty() : Optional.of(questions.get(twinId).task());
  }

  /** For a held-out question, the training question it re-asks. */
  Optional<Task> sourceOf(Task task) {
    String sourceId = question(task).sourceId();
    return sourceId.isEmpty() ? Optional.empty() : Optional.of(questions.get(sourceId).task());
  }

  /** The near-duplicate pairs among the training questions, each once. */
  public List<Pair> nearDuplicatePairs() {
    List<Pair> out = new ArrayList<>();
    for (Task t : tasks) {
      twinOf(t).filter(twin -> t.id().compareTo(twin.id()) < 0).ifPresent(twin -> out.add(new Pair(t, twin)));
    }
    return out;
  }

  private HardQuestionGenerator.Question question(Task task) {
    HardQuestionGenerator.Question q = questions.get(task.id());
    if (q == null || !q.task().equals(task)) {
      throw new IllegalArgumentException(
          "task " + task.id() + " is not one of " + NAME + "'s " + questions.size() + " questions");
    }
    return q;
  }
}
