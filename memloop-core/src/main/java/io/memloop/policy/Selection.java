package io.memloop.policy;

import io.memloop.Candidate;
import io.memloop.Memory;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@link SelectionPipeline} decided.
 *
 * @param candidates the whole pool as logged: the eligible candidates in the order shown and ranked (selected or
 *     not), then those {@link QMinFilter} dropped, in score order
 * @param selected the selected entries' memories in the order shown, a long failure note shortened when
 *     {@link NoteDepth} says so; entries without a memory are absent (see {@link #selectedIds})
 * @param note what per-task learning needs at the reward, the note-depth draw ({@link TaskNote#noteDepth}) included
 */
public record Selection(List<Candidate> candidates, List<Memory> selected, TaskNote note) {
  static final Selection EMPTY = new Selection(List.of(), List.of(), TaskNote.NONE);

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
