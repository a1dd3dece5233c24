package io.memloop.policy;

import io.memloop.store.Annotations;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What per-task learning needs to know about a retrieval when its reward arrives (see
 * {@link io.memloop.MemLoopConfig.TaskLearning}): which task asked, whether it could explore (it kept
 * failing, had exploration budget left and a memory to try), and which memory, if any, was shown to
 * explore.
 *
 * <p>Kept with the retrieval record as annotation {@value #ANNOTATION} (version {@value #VERSION}): {@link
 * #into(Annotations)} writes it, {@link #of(Annotations)} reads it back. The data: {@code byte flags (bits 0-1:
 * noteDepth + 1, bit 2: explorable), then context, explored and assumedUsed, each as varint length + UTF-8}.
 * {@link #NONE} is written as no annotation at all.
 *
 * @param context the task's key ({@code ""} when per-task learning is off)
 * @param explored id of the memory shown to explore ({@code ""} if none)
 * @param explorable whether the task could explore at this retrieval (whether or not it did)
 * @param assumedUsed the memory credited when the agent does not say which it used: the highest-ranked
 *     selected success experience ({@code ""} if none was selected)
 * @param noteDepth how much of a long merged failure note was shown, by a draw the reward is compared under:
 *     {@link #WHOLE}, {@link #NEWEST} (its newest k2 attempts), or {@link #NO_DRAW} (no selected note was
 *     longer than k2)
 */
public record TaskNote(String context, String explored, boolean explorable, String assumedUsed, int noteDepth) {
  /** {@link #noteDepth}: no draw. */
  public static final int NO_DRAW = -1;
  /** {@link #noteDepth}: the long notes were shown as their newest k2 attempts. */
  public static final int NEWEST = 0;
  /** {@link #noteDepth}: the long notes were shown whole. */
  public static final int WHOLE = 1;

  /** The annotation's name. */
  public static final String ANNOTATION = "task";
  /** The annotation's data layout version. */
  public static final int VERSION = 1;

  /** No per-task learning. */
  public static final TaskNote NONE = new TaskNote("", "", false, "");

  public TaskNote {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(explored, "explored");
    Objects.requireNonNull(assumedUsed, "assumedUsed");
    if (noteDepth < NO_DRAW || noteDepth > WHOLE) {
      throw new IllegalArgumentException("noteDepth must be -1, 0 or 1, got " + noteDepth);
    }
  }

  /** A note without a note-depth draw. */
  public TaskNote(String context, String explored, boolean explorable, String assumedUsed) {
    this(context, explored, explorable, assumedUsed, NO_DRAW);
  }

  /** A note without an assumed-used memory or a note-depth draw. */
  public TaskNote(String context, String explored, boolean explorable) {
    this(context, explored, explorable, "");
  }

  public boolean isNone() {
    return context.isEmpty() && explored.isEmpty() && !explorable && assumedUsed.isEmpty() && noteDepth == NO_DRAW;
  }

  /** The same note with {@code assumedUsed} set. */
  public TaskNote withAssumedUsed(String memoryId) {
    return new TaskNote(context, explored, explorable, memoryId, noteDepth);
  }

  /** The same note with {@code noteDepth} set. */
  public TaskNote withNoteDepth(int depth) {
    return new TaskNote(context, explored, explorable, assumedUsed, depth);
  }

  /**
   * The note kept in {@code annotations}; {@link #NONE} if they hold none.
   *
   * @throws IllegalArgumentException if the annotation is of another version or malformed
   */
  public static TaskNote of(Annotations annotations) {
    if (annotations.isEmpty()) {
      return NONE;
    }
    var entry = annotations.get(ANNOTATION);
    if (entry.isEmpty()) {
      return NONE;
    }
    if (entry.get().version() != VERSION) {
      throw new IllegalArgumentException("annotation '" + ANNOTATION + "' has version " + entry.get().version()
          + " (this build reads version " + VERSION + ")");
    }
    byte[] b = entry.get().data();
    int[] at = {1};
    if (b.length < 1 || (b[0] & ~0x7) != 0 || (b[0] & 0x3) > WHOLE + 1) {
      throw new IllegalArgumentException("annotation '" + ANNOTATION + "': bad flags byte");
    }
    String context = string(b, at);
    String explored = string(b, at);
    String assumedUsed = string(b, at);
    if (at[0] != b.length) {
      throw new IllegalArgumentException("annotation '" + ANNOTATION + "': " + (b.length - at[0]) + " trailing bytes");
    }
    return new TaskNote(context, explored, (b[0] & 0x4) != 0, assumedUsed, (b[0] & 0x3) - 1);
  }

  /** {@code annotations} with this note as annotation {@value #ANNOTATION} (without it, for {@link #NONE}). */
  public Annotations into(Annotations annotations) {
    if (isNone()) {
      return annotations.without(ANNOTATION);
    }
    byte[] c = context.getBytes(StandardCharsets.UTF_8);
    byte[] e = explored.getBytes(StandardCharsets.UTF_8);
    byte[] u = assumedUsed.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[1 + varintSize(c.length) + c.length + varintSize(e.length) + e.length
        + varintSize(u.length) + u.length];
    out[0] = (byte) ((noteDepth + 1) | (explorable ? 0x4 : 0));
    int p = put(out, 1, c);
    p = put(out, p, e);
    p = put(out, p, u);
    assert p == out.length;
    return annotations.with(ANNOTATION, VERSION, out);
  }

  private static int varintSize(int v) {
    return v < 1 << 7 ? 1 : v < 1 << 14 ? 2 : v < 1 << 21 ? 3 : v < 1 << 28 ? 4 : 5;
  }

  private static int put(byte[] out, int p, byte[] s) {
    int v = s.length;
    while ((v & ~0x7F) != 0) {
      out[p++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[p++] = (byte) v;
    System.arraycopy(s, 0, out, p, s.length);
    return p + s.length;
  }

  private static String string(byte[] b, int[] at) {
    int len = 0;
    for (int shift = 0; ; shift += 7) {
      if (at[0] >= b.length || shift > 28) {
        throw new IllegalArgumentException("annotation '" + ANNOTATION + "': truncated or bad length at byte " + at[0]);
      }
      int x = b[at[0]++];
      len |= (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        break;
      }
    }
    if (len < 0 || len > b.length - at[0]) {
      throw new IllegalArgumentException("annotation '" + ANNOTATION + "': a string of " + len + " bytes at byte "
          + at[0] + " runs past the end (" + b.length + " bytes)");
    }
    String s = new String(b, at[0], len, StandardCharsets.UTF_8);
    at[0] += len;
    return s;
  }
}
