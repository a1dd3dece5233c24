package io.memloop.bench.hardquestions;

import io.memloop.Memory;
import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Seeds;
import io.memloop.bench.StreamKinds;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamTask;
import io.memloop.bench.StreamWorld;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The stream of the hard-questions environment ({@link HardQuestionsEnvironment#stream}).
 *
 * <p>A kind is one of the environment's training questions, near-duplicate twins included: its questions share no
 * answers, so the only thing that can recur is a question. An instance asks it again in a new context, tagged with
 * one word of where it comes from ("Flashcard: What is the 7th prime after 1000?"), a tag the question has not been
 * asked with before. One word more keeps two askings of a question the same question to the frozen policy (their
 * distinct words overlap by at least 8 of 9, above {@link HardQuestionPolicy#SAME_QUESTION_OVERLAP}), so a verified
 * answer of one asking serves the next; a twin's asking still reads as the same question when the question is long
 * enough (13 words or more), as in the epochs. With {@link #TAGS} tags, a question can recur at most that many times
 * (fewer when the question itself uses a tag's word), which bounds the stream's length.
 *
 * <p>The drift: for the drifting questions (a share, seeded) the verified answer changes to another of the
 * question's plausible answers (the fact was updated; never the twin's answer). A verified answer remembered before
 * the drift is now wrong; the policy without memory guesses among the same ten answers as before, so it finds the
 * new one as often as it found the old.
 *
 * <p>Immutable and thread-safe.
 */
final class HardQuestionStream implements StreamWorld {
  /** Where an asking comes from: one word each, so that an asking adds exactly one word to its question. */
  static final List<String> TAGS = List.of(
      "Quiz:", "Recap:", "Reminder:", "Revisit:", "Homework:", "Trivia:", "Exam:", "Interview:", "Puzzle:",
      "Challenge:", "Review:", "Flashcard:", "Warmup:", "Seminar:", "Tutorial:", "Practice:", "Drill:", "Bonus:",
      "Riddle:", "Test:", "Query:", "Follow-up:", "Rematch:", "Retake:", "Encore:", "Bootcamp:", "Workshop:",
      "Olympiad:", "Contest:", "Midterm:", "Final:", "Assignment:", "Lecture:", "Office-hours:", "Study-group:",
      "Podcast:", "Newsletter:", "Forum:", "Chat:", "Email:", "Memo:", "Standup:", "Hackathon:", "Livestream:",
      "Webinar:", "Quizbowl:", "Notebook:", "Whiteboard:");

  /** What only the world knows of an asking: its plausible answers and the verified one in its world. */
  private record Hidden(String intent, List<String> options, String answer) {}

  private final HardQuestionPolicy policy;
  private final List<StreamTask> tasks;
  private final Map<String, Hidden> hidden;
  private final int driftAt;

  private HardQuestionStream(HardQuestionPolicy policy, List<StreamTask> tasks, Map<String, Hidden> hidden,
      int driftAt) {
    this.policy = policy;
    this.tasks = List.copyOf(tasks);
    this.hidden = Map.copyOf(hidden);
    this.driftAt = driftAt;
  }

  static HardQuestionStream generate(HardQuestionsEnvironment env, long seed, StreamShape shape) {
    SplittableRandom rnd = new SplittableRandom(Seeds.derive(seed, "hard-questions:stream"));
    List<Task> kinds = env.tasks();
    List<List<String>> tags = new ArrayList<>();
    for (Task k : kinds) {
      Set<String> words = HardQuestionPolicy.words(k.intent());
      List<String> fresh = new ArrayList<>(TAGS.stream()
          .filter(tag -> HardQuestionPolicy.words(tag).stream().noneMatch(words::contains)).toList());
      Collections.shuffle(fresh, rnd);
      tags.add(fresh);
    }
    int[] quotas = StreamKinds.quotas(shape.length(), tags.stream().mapToInt(List::size).toArray());
    Map<Integer, String> updated = new HashMap<>();
    for (int k : StreamKinds.drifting(kinds.size(), shape.driftedShare(), rnd)) {
      Task kind = kinds.get(k);
      List<String> others = new ArrayList<>(env.optionsOf(kind));
      others.remove(env.answerOf(kind));
      env.twinOf(kind).ifPresent(twin -> others.remove(env.answerOf(twin)));
      updated.put(k, others.get(rnd.nextInt(others.size())));
    }
    int driftAt = shape.driftIndex();
    int[] next = new int[kinds.size()];
    List<StreamTask> tasks = new ArrayList<>();
    Map<String, Hidden> hidden = new HashMap<>();
    List<Integer> order = StreamKinds.order(quotas, rnd);
    for (int i = 0; i < order.size(); i++) {
      int k = order.get(i);
      Task kind = kinds.get(k);
      String intent = tags.get(k).get(next[k]++) + " " + kind.intent();
      String answer = i >= driftAt && updated.containsKey(k) ? updated.get(k) : env.answerOf(kind);
      Task task = new Task("hq-stream/" + i + "/" + kind.id(), intent);
      hidden.put(task.id(), new Hidden(intent, env.optionsOf(kind), answer));
      tasks.add(new StreamTask(task, kind.id(), updated.containsKey(k)));
    }
    return new HardQuestionStream(env.policy(), tasks, hidden, driftAt);
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

  /** As {@link HardQuestionsEnvironment#attempt}, checked against the answer verified in the asking's world. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
    Hidden h = hiddenOf(task);
    String given = policy.answer(task.intent(), h.options(), shown, rnd);
    boolean success = given.equals(h.answer());
    return new Episode(task, success, success ? 1 : -1,
        success ? HardQuestionPolicy.successExperience(task.intent(), given)
            : HardQuestionPolicy.failureExperience(task.intent(), given));
  }

  /** A memory helps when, shown first and alone, it makes the policy give the answer verified in the asking's world. */
  @Override
  public boolean helps(Task task, Memory memory) {
    Hidden h = hiddenOf(task);
    return HardQuestionPolicy.decide(task.intent(), h.options(), List.of(memory)).certainlyGives(h.answer());
  }

  /** The verified answer of an asking in its world. */
  String answerOf(Task task) {
    return hiddenOf(task).answer();
  }

  private Hidden hiddenOf(Task task) {
    Hidden h = hidden.get(task.id());
    if (h == null || !h.intent().equals(task.intent())) {
      throw new IllegalArgumentException("task " + task.id() + " is not one of the " + hidden.size()
          + " askings of this " + HardQuestionsEnvironment.NAME + " stream");
    }
    return h;
  }
}
