package io.memloop.store.lucene;

import io.memloop.store.Annotations;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Everything the store keeps in RAM: memory and group tables, namespaces with their retrievals, the
 * id sequence and the per-memory lock stripes. Built from a snapshot plus the log, then updated by
 * the live operations through the same {@link #publish} step that replay uses, so a replayed store
 * is identical to the one that wrote the log.
 *
 * <p>Thread safety: see the tables; {@code sequence} hands out ids ({@code "i"}, {@code "m"} under
 * the log lock so that they increase with table position, {@code "r"} anywhere). It is never lowered,
 * so ids are never reused, even after reopening.
 */
final class StoreState {
  final MemoryTable memories = new MemoryTable();
  final GroupTable groups = new GroupTable();
  final NamespaceRegistry namespaces;
  final Stripes stripes = new Stripes();
  final AtomicLong sequence = new AtomicLong();

  /**
   * @param retrievalLimits what each namespace keeps of its saved retrievals
   * @param storeRetrievalLimits what all namespaces together keep
   */
  StoreState(RetrievalBook.Limits retrievalLimits, RetrievalBook.Limits storeRetrievalLimits) {
    this.namespaces = new NamespaceRegistry(retrievalLimits, storeRetrievalLimits);
  }

  /**
   * Makes a reserved memory slot part of its group and namespace. Caller holds {@code ns}'s write
   * lock (or is replaying).
   */
  void publish(NamespaceState ns, int slot, int groupIndex, boolean newGroup, double initialQ, Instant createdAt,
      io.memloop.Outcome outcome) {
    memories.setContent(slot, MemoryContent.code(outcome), createdAt.getEpochSecond(), createdAt.getNano());
    memories.setGroup(slot, groupIndex);
    memories.setUtility(slot, initialQ, 0, createdAt);
    if (newGroup) {
      ns.groups.add(groupIndex);
    }
    groups.get(groupIndex).members.add(slot);
    ns.memories.add(slot);
  }

  /**
   * Takes a published memory out of its group and namespace and flags it deleted; if it was its
   * group's last memory, the group is flagged deleted and leaves the namespace too. Returns whether the
   * group went. Caller holds {@code ns}'s write lock and the slot's stripe lock (or is replaying).
   */
  boolean unpublish(NamespaceState ns, int slot) {
    assert !memories.isDeleted(slot) && memories.namespace(slot) == ns.id : "slot " + slot;
    memories.markDeleted(slot);
    ns.annotations.remove(memories.seq(slot)); // a memory's annotations go with it
    int groupIndex = memories.group(slot);
    GroupTable.Group g = groups.get(groupIndex);
    boolean removed = g.members.removeSorted(slot) & ns.memories.removeSorted(slot);
    assert removed : "slot " + slot + " was not listed in its group and namespace";
    if (g.members.size() > 0) {
      return false;
    }
    groups.markDeleted(g);
    ns.groups.removeSorted(groupIndex);
    return true;
  }

  /** Sets live memories' annotations (absolute; {@link Annotations#EMPTY} removes them). */
  void annotate(NamespaceState ns, long[] memorySeqs, Annotations[] annotations) {
    for (int i = 0; i < memorySeqs.length; i++) {
      if (annotations[i].isEmpty()) {
        ns.annotations.remove(memorySeqs[i]);
      } else {
        ns.annotations.put(memorySeqs[i], annotations[i]);
      }
    }
  }

  /** The slot of live memory {@code seq} of {@code ns}, or -1. Caller holds {@code ns}'s lock. */
  int liveSlot(NamespaceState ns, long seq) {
    int slot = seq < 0 ? -1 : memories.find(seq);
    return slot >= 0 && memories.namespace(slot) == ns.id && !memories.isDeleted(slot) ? slot : -1;
  }

  /**
   * Re-applies one log record during open. Inserts at or after {@code commitLsn} are not in the index
   * and are added to {@code redo}.
   */
  void replay(WalRecord record, long startLsn, long commitLsn, List<VectorIndex.Redo> redo, Path file,
      long offset) {
    switch (record) {
      case WalRecord.Insert ins -> replayInsert(ins, startLsn >= commitLsn ? redo : null, file, offset);
      case WalRecord.Batch batch -> {
        for (WalRecord.Insert ins : batch.inserts()) {
          replayInsert(ins, startLsn >= commitLsn ? redo : null, file, offset);
        }
      }
      case WalRecord.Delete del -> replayDelete(del, startLsn >= commitLsn ? redo : null, file, offset);
      case WalRecord.Edit edit -> replayEdit(edit, startLsn >= commitLsn ? redo : null, file, offset);
      case WalRecord.RetrievalSaved saved -> {
        NamespaceState ns = namespaces.getOrCreate(saved.retrieval().namespace());
        ns.retrievals.save(new RetrievalBook.Pending(saved.seq(), saved.retrieval()), () -> 0);
        raiseSequence(saved.seq());
      }
      case WalRecord.SequenceFloor f -> raiseSequence(f.floor());
      case WalRecord.LedgerPut put -> namespaces.getOrCreate(put.namespace()).ledger.putAll(put.values());
      case WalRecord.LedgerDelete del -> {
        NamespaceState ns = namespaces.get(del.namespace()); // logged only for keys held, so it exists
        if (ns != null) {
          for (String key : del.keys()) {
            ns.ledger.remove(key);
          }
        }
      }
      case WalRecord.Annotate ann -> {
        NamespaceState ns = namespaces.getOrCreate(ann.namespace());
        for (long seq : ann.memorySeqs()) {
          if (liveSlot(ns, seq) < 0) {
            throw StoreFiles.corrupt(file, "annotate at offset " + offset + " annotates memory m" + seq
                + " which namespace " + ns.name + " does not hold");
          }
        }
        annotate(ns, ann.memorySeqs(), ann.annotations());
      }
      case WalRecord.Rewarded rew -> {
        NamespaceState ns = namespaces.getOrCreate(rew.namespace());
        RetrievalBook.Pending p = ns.retrievals.get(rew.retrievalSeq());
        if (p != null) { // else forgotten by a later-logged save; the utilities still apply
          p.rewardedAt = rew.at();
        }
        for (int i = 0; i < rew.memorySeqs().length; i++) {
          int slot = memories.find(rew.memorySeqs()[i]);
          if (slot < 0 || memories.namespace(slot) != ns.id || memories.isDeleted(slot)) {
            throw StoreFiles.corrupt(file, "reward at offset " + offset + " updates memory m" + rew.memorySeqs()[i]
                + " which namespace " + ns.name + " does not hold");
          }
          memories.setUtility(slot, rew.qs()[i], rew.visits()[i], rew.at());
        }
      }
    }
  }

  private void replayInsert(
      WalRecord.Insert ins, @Nullable List<VectorIndex.Redo> redo, Path file, long offset) {
    MemoryContent content;
    try {
      content = MemoryContent.decode(ins.content(), 0, ins.content().length);
    } catch (ByteReader.Malformed e) {
      throw StoreFiles.corrupt(file, "malformed memory in insert at offset " + offset + ": " + e.getMessage());
    }
    NamespaceState ns = namespaces.getOrCreate(ins.namespace());
    int last = memories.size() - 1;
    if (last >= 0 && ins.memorySeq() <= memories.seq(last)) {
      throw StoreFiles.corrupt(file, "insert at offset " + offset + " has memory id m" + ins.memorySeq()
          + " not after m" + memories.seq(last));
    }
    int groupIndex;
    if (ins.newGroup()) {
      int lastGroup = groups.size() - 1;
      if (lastGroup >= 0 && ins.groupSeq() <= groups.get(lastGroup).seq) {
        throw StoreFiles.corrupt(file, "insert at offset " + offset + " creates group i" + ins.groupSeq()
            + " not after i" + groups.get(lastGroup).seq);
      }
      groupIndex = groups.reserve(ins.groupSeq(), ns.id);
    } else {
      groupIndex = groups.find(ins.groupSeq());
      if (groupIndex < 0 || groups.get(groupIndex).namespace != ns.id) {
        throw StoreFiles.corrupt(file, "insert at offset " + offset + " joins group i" + ins.groupSeq()
            + " which namespace " + ns.name + " does not hold");
      }
    }
    int slot = memories.reserve(ins.memorySeq(), ns.id);
    publish(ns, slot, groupIndex, ins.newGroup(), ins.initialQ(), content.createdAt(), content.outcome());
    raiseSequence(Math.max(ins.memorySeq(), ins.groupSeq()));
    if (redo != null) {
      redo.add(new VectorIndex.Redo.Add(ns.name, ins.memorySeq(), ins.content(),
          ins.newGroup() ? content.embedding() : null, ins.groupSeq()));
    }
  }

  private void replayDelete(WalRecord.Delete del, @Nullable List<VectorIndex.Redo> redo, Path file, long offset) {
    NamespaceState ns = namespaces.getOrCreate(del.namespace());
    int slot = liveSlot(ns, del.memorySeq());
    if (slot < 0) {
      throw StoreFiles.corrupt(file, "delete at offset " + offset + " removes memory m" + del.memorySeq()
          + " which namespace " + ns.name + " does not hold");
    }
    long groupSeq = groups.get(memories.group(slot)).seq;
    if (groupSeq != del.groupSeq()) {
      throw StoreFiles.corrupt(file, "delete at offset " + offset + " says memory m" + del.memorySeq()
          + " is in group i" + del.groupSeq() + ", the log put it in i" + groupSeq);
    }
    boolean emptied = unpublish(ns, slot);
    if (emptied != del.groupEmptied()) {
      throw StoreFiles.corrupt(file, "delete at offset " + offset + " of memory m" + del.memorySeq() + " says group i"
          + groupSeq + (del.groupEmptied() ? " emptied" : " kept members") + ", the log says otherwise");
    }
    if (redo != null) {
      redo.add(new VectorIndex.Redo.Delete(del.memorySeq(), emptied ? groupSeq : -1));
    }
  }

  private void replayEdit(WalRecord.Edit edit, @Nullable List<VectorIndex.Redo> redo, Path file, long offset) {
    NamespaceState ns = namespaces.getOrCreate(edit.namespace());
    int slot = liveSlot(ns, edit.memorySeq());
    if (slot < 0) {
      throw StoreFiles.corrupt(file, "edit at offset " + offset + " changes memory m" + edit.memorySeq()
          + " which namespace " + ns.name + " does not hold");
    }
    try {
      MemoryContent.decode(edit.content(), 0, edit.content().length);
    } catch (ByteReader.Malformed e) {
      throw StoreFiles.corrupt(file, "malformed memory in edit at offset " + offset + ": " + e.getMessage());
    }
    memories.setUtility(slot, memories.q(slot), memories.visits(slot), edit.at());
    if (redo != null) {
      redo.add(new VectorIndex.Redo.Update(edit.memorySeq(), edit.content()));
    }
  }

  void raiseSequence(long seen) {
    sequence.accumulateAndGet(seen, Math::max);
  }
}
