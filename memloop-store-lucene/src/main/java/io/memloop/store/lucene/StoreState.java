package io.memloop.store.lucene;

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
  final NamespaceRegistry namespaces = new NamespaceRegistry();
  final Stripes stripes = new Stripes();
  final AtomicLong sequence = new AtomicLong();

  /**
   * Makes a reserved memory slot part of its group and namespace. Caller holds {@code ns}'s write
   * lock (or is replaying).
   */
  void publish(NamespaceState ns, int slot, int groupIndex, boolean newGroup, double initialQ, Instant createdAt) {
    memories.setGroup(slot, groupIndex);
    memories.setUtility(slot, initialQ, 0, createdAt);
    if (newGroup) {
      ns.groups.add(groupIndex);
    }
    groups.get(groupIndex).members.add(slot);
    ns.memories.add(slot);
  }

  /**
   * Re-applies one log record during open. Inserts at or after {@code commitLsn} are not in the index
   * and are added to {@code redo}.
   */
  void replay(WalRecord record, long startLsn, long commitLsn, List<VectorIndex.Redo> redo, Path file,
      long offset) {
    switch (record) {
      case WalRecord.Insert ins -> replayInsert(ins, startLsn >= commitLsn ? redo : null, file, offset);
      case WalRecord.RetrievalSaved saved -> {
        NamespaceState ns = namespaces.getOrCreate(saved.retrieval().namespace());
        ns.retrievals.save(new RetrievalBook.Pending(saved.seq(), saved.retrieval()), () -> 0);
        raiseSequence(saved.seq());
      }
      case WalRecord.SequenceFloor f -> raiseSequence(f.floor());
      case WalRecord.Rewarded rew -> {
        NamespaceState ns = namespaces.getOrCreate(rew.namespace());
        RetrievalBook.Pending p = ns.retrievals.get(rew.retrievalSeq());
        if (p != null) { // else forgotten by a later-logged save; the utilities still apply
          p.rewardedAt = rew.at();
        }
        for (int i = 0; i < rew.memorySeqs().length; i++) {
          int slot = memories.find(rew.memorySeqs()[i]);
          if (slot < 0 || memories.namespace(slot) != ns.id) {
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
    publish(ns, slot, groupIndex, ins.newGroup(), ins.initialQ(), content.createdAt());
    raiseSequence(Math.max(ins.memorySeq(), ins.groupSeq()));
    if (redo != null) {
      redo.add(new VectorIndex.Redo(ns.name, ins.memorySeq(), ins.content(),
          ins.newGroup() ? content.embedding() : null, ins.groupSeq()));
    }
  }

  void raiseSequence(long seen) {
    sequence.accumulateAndGet(seen, Math::max);
  }
}
