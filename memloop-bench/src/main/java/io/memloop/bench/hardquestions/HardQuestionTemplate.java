package io.memloop.bench.hardquestions;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * One kind of hard question of the {@link HardQuestionsEnvironment}: a few phrasings with numbered
 * slots ({@code {0}}, {@code {1}}...) and a solver that computes the single verifiable answer from
 * the slot values.
 *
 * <p>Every slot value is one word (no spaces), so a near-duplicate made by resampling one slot
 * differs from its original in exactly one word, the case a pattern-matching reader cannot tell apart.
 *
 * @param key stable name, part of task ids
 * @param phrasings wordings of the same question; each uses every slot
 * @param slots one sampler per slot
 * @param solver the answer, or empty when the slot values do not make a valid question (resampled)
 */
record HardQuestionTemplate(String key, List<String> phrasings, List<Slot> slots, Solver solver) {

  /** Draws one slot value: a single word. */
  @FunctionalInterface
  interface Slot {
    String sample(RandomGenerator rnd);
  }

  /** The answer to the question the slot values make; {@code worldSeed} fixes invented facts. */
  @FunctionalInterface
  interface Solver {
    Optional<String> solve(List<String> values, long worldSeed);
  }

  HardQuestionTemplate {
    phrasings = List.copyOf(phrasings);
    slots = List.copyOf(slots);
    if (phrasings.isEmpty() || slots.isEmpty()) {
      throw new IllegalArgumentException("template " + key + " needs phrasings and slots");
    }
    for (String p : phrasings) {
      for (int i = 0; i < slots.size(); i++) {
        if (!p.contains("{" + i + "}")) {
          throw new IllegalArgumentException("phrasing of " + key + " lacks slot {" + i + "}: " + p);
        }
      }
    }
  }

  List<String> sample(RandomGenerator rnd) {
    List<String> values = new ArrayList<>(slots.size());
    for (Slot s : slots) {
      values.add(s.sample(rnd));
    }
    return values;
  }

  /** The values with slot {@code slot} drawn again (possibly to the same value). */
  List<String> resample(List<String> values, int slot, RandomGenerator rnd) {
    List<String> out = new ArrayList<>(values);
    out.set(slot, slots.get(slot).sample(rnd));
    return out;
  }

  String render(int phrasing, List<String> values) {
    String text = phrasings.get(phrasing);
    for (int i = 0; i < values.size(); i++) {
      String v = values.get(i);
      assert !v.contains(" ") : "slot values are single words: " + v;
      text = text.replace("{" + i + "}", v);
    }
    return text;
  }
}
