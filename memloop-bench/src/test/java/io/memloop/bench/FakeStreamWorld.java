package io.memloop.bench;

import io.memloop.Memory;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * A small stream for the stream mode's tests, standing in for the environments' own ({@link StreamSource}): kinds
 * named by a word recur round-robin; a kind's right answer is {@code A<kind>} and, for the drifting kinds from the
 * drift on, {@code B<kind>}. The frozen policy copies the answer of the first shown success of the instance's kind
 * (read from the experience text), else guesses right with probability {@link #GUESS}; with probability
 * {@link #SLIP} it ignores what it is shown. A success stored before the drift therefore fails when copied after
 * it on a drifting kind, and guessing still finds the new answer.
 */
final class FakeStreamWorld implements StreamWorld {
  static final double GUESS = 0.3;
  static final double SLIP = 0.05;
  private static final List<String> WORDS = List.of("alpha", "bravo", "charlie", "delta", "echo", "foxtrot");

  private final List<StreamTask> tasks;
  private final int driftAt;
  private final int drifting;

  /** {@code kinds} kinds (at most 6), the first {@code drifting} of them drifting. */
  FakeStreamWorld(long seed, StreamShape shape, int kinds, int drifting) {
    this.driftAt = shape.driftIndex();
    this.drifting = drifting;
    List<StreamTask> out = new ArrayList<>();
    for (int i = 0; i < shape.length(); i++) {
      int k = i % kinds;
      out.add(new StreamTask(new Task(WORDS.get(k) + "#" + i,
          "handle the " + WORDS.get(k) + " request number " + i + " of run " + seed), WORDS.get(k), k < drifting));
    }
    this.tasks = List.copyOf(out);
  }

  /** A source of such worlds: 4 kinds, the shape's share of them drifting (rounded, at least one). */
  static StreamSource source() {
    return (seed, shape) -> new FakeStreamWorld(seed, shape, 4, Math.max(1, (int) Math.round(4 * shape.driftedShare())));
  }

  @Override
  public List<StreamTask> tasks() {
    return tasks;
  }

  @Override
  public int driftAt() {
    return driftAt;
  }

  @Override
  public List<PriorExperience> priorExperiences() {
    return List.of();
  }

  private String kind(Task task) {
    return task.id().substring(0, task.id().indexOf('#'));
  }

  private String answer(Task task) {
    String kind = kind(task);
    int index = Integer.parseInt(task.id().substring(task.id().indexOf('#') + 1));
    boolean changed = WORDS.indexOf(kind) < drifting && index >= driftAt;
    return (changed ? "B" : "A") + kind;
  }

  private static String copied(String kind, Memory m) {
    String prefix = "kind=" + kind + " answer=";
    return m.experience().startsWith(prefix) ? m.experience().substring(prefix.length()).split(" ")[0] : null;
  }

  @Override
  public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
    String kind = kind(task);
    String right = answer(task);
    boolean slip = rnd.nextDouble() < SLIP;
    boolean lucky = rnd.nextDouble() < GUESS;
    String answer = null;
    if (!slip) {
      answer = shown.stream().map(m -> copied(kind, m)).filter(a -> a != null).findFirst().orElse(null);
    }
    if (answer == null) {
      answer = lucky ? right : "wrong-" + kind;
    }
    boolean success = answer.equals(right);
    return new Episode(task, success, success ? 1 : -1,
        success ? "kind=" + kind + " answer=" + answer + " worked" : "kind " + kind + ": answer " + answer + " failed");
  }

  @Override
  public boolean helps(Task task, Memory memory) {
    return answer(task).equals(copied(kind(task), memory));
  }
}
