package io.memloop.bench.ops;

import io.memloop.Memory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The frozen policy of the ops environments: a stand-in for an LLM that copies the top example it
 * is shown.
 *
 * <p>It reads the shown experiences top-down, as ranked. A failure note ("{@code X} was wrong
 * here") marks X to avoid; the first success experience whose procedure is not marked is copied.
 * Experiences naming a procedure this task does not admit are ignored, as a model ignores an
 * example of another kind of task. Nothing usable → a guess among the procedures not marked. With
 * probability {@code slipProbability} the policy ignores what it was shown and guesses blind, so a
 * right memory does not guarantee success.
 *
 * <p>The policy reads only the experience text, never the memory's stored outcome, as a model
 * would. Stateless apart from its configuration; thread-safe.
 */
final class CopyFirstPolicy {
  /** Quotes the procedure inside an experience text; procedures never contain it. */
  static final String QUOTE = "`";

  private static final String WORKED = "What worked: ";
  private static final String WENT_WRONG = "What went wrong: ";

  private final double slipProbability;

  CopyFirstPolicy(double slipProbability) {
    if (!(slipProbability >= 0 && slipProbability < 1)) {
      throw new IllegalArgumentException("slipProbability must be in [0, 1), got " + slipProbability);
    }
    this.slipProbability = slipProbability;
  }

  double slipProbability() {
    return slipProbability;
  }

  /** The procedure the policy applies to a task admitting {@code procedures}. */
  String choose(List<String> procedures, List<Memory> shown, RandomGenerator rnd) {
    if (shown.isEmpty() || (slipProbability > 0 && rnd.nextDouble() < slipProbability)) {
      return procedures.get(rnd.nextInt(procedures.size()));
    }
    Set<String> avoid = new HashSet<>();
    for (String experience : Memory.partsOf(shown)) {
      Optional<String> procedure = quoted(experience).filter(procedures::contains);
      if (procedure.isEmpty()) {
        continue;
      }
      if (experience.contains(WORKED) && !avoid.contains(procedure.get())) {
        return procedure.get();
      }
      if (experience.contains(WENT_WRONG)) {
        avoid.add(procedure.get());
      }
    }
    List<String> options = new ArrayList<>(procedures.size());
    for (String p : procedures) {
      if (!avoid.contains(p)) {
        options.add(p);
      }
    }
    if (options.isEmpty()) { // every procedure was reported wrong: the notes are useless, guess blind
      options = procedures;
    }
    return options.get(rnd.nextInt(options.size()));
  }

  /** The experience of a successful episode: the MemRL "script" of what worked. */
  static String successExperience(String intent, String procedure) {
    return "Task: " + intent + "\nOutcome: succeeded.\n" + WORKED + QUOTE + procedure + QUOTE + ".";
  }

  /** The experience of a failed episode: the MemRL reflection, what went wrong and what to avoid. */
  static String failureExperience(String intent, String procedure) {
    return "Task: " + intent + "\nOutcome: failed.\n" + WENT_WRONG + QUOTE + procedure + QUOTE
        + " was the wrong procedure here; avoid it.";
  }

  /** The procedure a success experience says worked; empty for failure notes and foreign texts. */
  static Optional<String> workedProcedure(String experience) {
    return experience.contains(WORKED) ? quoted(experience) : Optional.empty();
  }

  static Optional<String> quoted(String experience) {
    int start = experience.indexOf(QUOTE);
    int end = start < 0 ? -1 : experience.indexOf(QUOTE, start + 1);
    return end < 0 ? Optional.empty() : Optional.of(experience.substring(start + 1, end));
  }
}
