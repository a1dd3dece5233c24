package io.memloop.policy;

import io.memloop.Candidate;
import io.memloop.Memory;
import java.util.ArrayList;
import io.memloop.store.Annotations;
import java.util.List;

/**
 * What {@link SelectionPipeline} decided.
 *
 * @param candidates the whole pool as logged: the eligible candidates in the order shown and ranked (selected or
 *     not), then those {@link QMinFilter} dropped, in score order
 * @param selected the selected entries' memories in the order shown, a long failure note shortened when
 *     {@link NoteDepth} says so; entries without a memory are absent (see {@link #selectedIds})
 * @param note what per-task learning needs at the reward, the note-depth draw ({@link TaskNote#noteDepth}) included
 * @param annotations what else the reward needs, kept with the retrieval beside the note: the selected candidates'
 *     block scores ({@link Blocks}) when vectors are split into blocks; else empty
 */
public record Selection(List<Candidate> candidates, List<Memory> selected, TaskNote note, Annotations annotations) {
  static final Selection EMPTY = new Selection(List.of(), List.of(), TaskNote.NONE);

  /** A selection that keeps nothing but its note for the reward. */
  public Selection(List<Candidate> candidates, List<Memory> selected, TaskNote note) {
    this(candidates, selected, note, Annotations.EMPTY);
  }

  /** What the retrieval record keeps for the reward: {@link #annotations} with the {@link #note}. */
  public Annotations recorded() {
    return note.into(annotations);
  }

  /** The selected memories' ids, in the order shown (also of entries that carry no memory). */
  public List<String> selectedIds() {
    List<String> out = new ArrayList<>();
    for (Candidate c : candidates) {
      if (c.selected()) {
        out.add(c.memoryId());
      }
    }
    return out;
  }
}
