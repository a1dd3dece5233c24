package io.memloop;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * One stored experience: the MemRL triplet (intent embedding z, experience e, utility Q) plus what a
 * user needs to audit it.
 *
 * @param id store-assigned, never reused
 * @param namespace tenant; retrieval never crosses namespaces
 * @param intentId the intent group this memory sits under: a memory whose intent is within the merge
 *     threshold of an existing intent joins that intent's group, as in the MemRL reference code
 * @param intentText the task text that produced the memory ({@code ""} if only an embedding was given)
 * @param intentEmbedding unit-length embedding of the memory's own intent
 * @param experience distilled experience text shown to the agent
 * @param outcome how the producing episode ended
 * @param q learned utility
 * @param visits how many rewards have updated {@code q}
 */
public record Memory(
    String id,
    String namespace,
    String intentId,
    String intentText,
    float[] intentEmbedding,
    String experience,
    Outcome outcome,
    double q,
    long visits,
    Instant createdAt,
    Instant updatedAt) {

  /**
   * What separates the attempts of a merged failure note ({@link MemLoopConfig.Consolidation#MERGE_FAILURES}):
   * a line {@code --- earlier attempt ---} (the newest attempt comes first). Distinctive, so that an
   * experience of its own, with a Markdown rule in it, is not taken for several attempts.
   */
  public static final String PART_SEPARATOR = "\n--- earlier attempt ---\n";

  private static final java.util.regex.Pattern PARTS = java.util.regex.Pattern.compile(PART_SEPARATOR, java.util.regex.Pattern.LITERAL);

  /** The experiences this memory's text holds: one, or the attempts of a merged failure note, newest first. */
  public List<String> parts() {
    return parts(experience);
  }

  /**
   * The experiences {@code shown} memories hold, in the order shown, a merged failure note read as its
   * attempts, newest first: how an agent reads a retrieval's memories one experience at a time.
   */
  public static List<String> partsOf(List<Memory> shown) {
    List<String> out = new java.util.ArrayList<>(shown.size());
    for (Memory m : shown) {
      out.addAll(m.parts());
    }
    return out;
  }

  /** {@link #parts()} of an experience text. */
  public static List<String> parts(String experience) {
    // every retrieval asks this of what it selects: most texts are one experience, answered without a split
    return experience.contains(PART_SEPARATOR) ? List.of(PARTS.split(experience, -1)) : List.of(experience);
  }

  /** The text of a merged note listing the first {@code most} of {@code parts} (newest first). */
  public static String joinParts(List<String> parts, int most) {
    return String.join(PART_SEPARATOR, parts.subList(0, Math.min(most, parts.size())));
  }

  /** The same memory with another experience text (what a retrieval shows of a long note). */
  public Memory withExperience(String text) {
    return new Memory(
        id, namespace, intentId, intentText, intentEmbedding, text, outcome, q, visits, createdAt, updatedAt);
  }

  /** The same memory with a new utility. */
  public Memory withUtility(Utility utility, Instant now) {
    return new Memory(
        id, namespace, intentId, intentText, intentEmbedding, experience, outcome, utility.q(),
        utility.visits(), createdAt, now);
  }

  public Utility utility() {
    return new Utility(q, visits);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Memory m
        && id.equals(m.id)
        && namespace.equals(m.namespace)
        && intentId.equals(m.intentId)
        && intentText.equals(m.intentText)
        && Arrays.equals(intentEmbedding, m.intentEmbedding)
        && experience.equals(m.experience)
        && outcome == m.outcome
        && Double.compare(q, m.q) == 0
        && visits == m.visits
        && createdAt.equals(m.createdAt)
        && updatedAt.equals(m.updatedAt);
  }

  @Override
  public int hashCode() {
    return id.hashCode();
  }

  /** The most characters of the experience {@link #toString} shows; a longer one ends in "...". */
  static final int TO_STRING_EXPERIENCE_CHARS = 120;

  /**
   * The memory for logs and debuggers: its ids, utility, outcome and experience, the experience cut to
   * {@value #TO_STRING_EXPERIENCE_CHARS} characters (a merged note can be tens of kilobytes) and quoted, with
   * line breaks shown as {@code \n} so that one memory stays on one line. The embedding is left out.
   */
  @Override
  public String toString() {
    String e = experience.length() <= TO_STRING_EXPERIENCE_CHARS
        ? experience
        : experience.substring(0, Character.isHighSurrogate(experience.charAt(TO_STRING_EXPERIENCE_CHARS - 1))
            ? TO_STRING_EXPERIENCE_CHARS - 1 : TO_STRING_EXPERIENCE_CHARS) + "...";
    return "Memory[id=" + id + ", ns=" + namespace + ", intent=" + intentId + ", q=" + q + ", visits="
        + visits + ", outcome=" + outcome + ", experience=\"" + e.replace("\\", "\\\\").replace("\r", "\\r")
        .replace("\n", "\\n").replace("\"", "\\\"") + "\"]";
  }
}
