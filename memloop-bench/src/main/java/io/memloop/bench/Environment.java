package io.memloop.bench;

import io.memloop.Memory;
import io.memloop.bench.llm.LlmPolicy;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A source of recurring tasks with verifiable outcomes, and the frozen policy that attempts them.
 *
 * <p>The policy stands in for a frozen LLM: a fixed procedure, deterministic given the random
 * generator, that is never trained. Whatever improves over epochs improves because of the memory
 * shown to it, which is the claim the benchmark tests (MemRL, arXiv 2601.03192: learning in memory,
 * not in weights).
 *
 * <p>Ground truth is private to the environment; strategies see only {@link Task}s and
 * {@link Episode}s. An oracle strategy that needs it will get it through a separate capability
 * interface, not through this one.
 *
 * <p>Implementations are immutable after construction and thread-safe: runs of different
 * strategies or seeds may share one environment.
 */
public interface Environment {

  /** Stable name, printed in reports. */
  String name();

  /** The ordered training list of one epoch; every epoch repeats it in this order. */
  List<Task> tasks();

  /** Tasks never trained on, played with frozen memory after the last epoch; may be empty. */
  List<Task> heldOut();

  /** What the {@link #heldOut} tasks measure. */
  enum HeldOut {
    /** Unseen tasks of trained kinds (other literals, other goals): whether what was learned carries over. */
    TRANSFER("transfer"),
    /** Trained tasks asked again in other words: whether what was learned is still found. */
    ROBUSTNESS("robustness");

    private final String label;

    HeldOut(String label) {
      this.label = label;
    }

    /** The metric's name in tables and the phase of its episodes in {@code episodes.jsonl}. */
    public String label() {
      return label;
    }

    /** The metric's key in {@code summary.json}: {@code transferAccuracy}, {@code robustnessAccuracy}. */
    public String key() {
      return label + "Accuracy";
    }
  }

  /** {@link HeldOut#TRANSFER} unless the held-out tasks restate training tasks. */
  default HeldOut heldOutKind() {
    return HeldOut.TRANSFER;
  }

  /** Experiences in memory before the first epoch, loaded by every strategy that has memory; may be empty. */
  List<PriorExperience> priorExperiences();

  /**
   * The frozen policy attempts {@code task} with the experiences {@code shown} (in the order the
   * strategy ranked them) and the environment verifies the answer.
   *
   * @param rnd the only source of randomness of the attempt
   */
  Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd);

  /**
   * The same attempt with a language model deciding instead of the frozen policy: the environment
   * renders the task and the experiences {@code shown} as a prompt, parses the model's reply into its
   * action, verifies it as for the frozen policy, and returns the conversation with the episode.
   *
   * @param rnd draws the requests' seeds
   * @throws io.memloop.MemLoopException {@code MODEL_FAILED} when the model cannot be reached
   */
  Episode attempt(Task task, List<Memory> shown, LlmPolicy llm, RandomGenerator rnd);
}
