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

  /** Tasks never trained on, for transfer with frozen memory; may be empty. */
  List<Task> heldOut();

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
