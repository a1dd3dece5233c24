package io.memloop.store.lucene;

import io.memloop.Candidate;
import io.memloop.policy.TaskNote;
import io.memloop.store.Annotations;
import io.memloop.store.RetrievalRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A checkpoint of the RAM state, valid at the start of log segment {@code segment} (LSN {@code lsn}):
 * opening loads it and replays only the log from that segment on. Layout (little-endian):
 *
 * <pre>
 *   int MAGIC "MLSS", int version (5; 1 to 4 are read), int dimension, long segment, long lsn, long sequence,
 *   byte clean (1 if written by a clean close: nothing after it was ever handed out)
 *   int n, n × str namespace                                   (index = namespace id)
 *   int n, n × (long seq, int namespace)                       groups, by index
 *   int n, n × (long seq, int namespace, int group, double q, long visits, long updSec, int updNanos,
 *               v4: long createdSec, int createdNanos, byte outcome)        memories (v1-3: outcome and
 *               created-at are read from the index after opening, see {@link StoreOpener})
 *   int n, n × (long seq, int namespace, instant created, instant expires, byte rewarded,
 *               [instant rewardedAt], int c, c × candidate,
 *               v2-4: str context, str explored, byte explorable, str assumedUsed,
 *               v3-4: byte noteDepth+1)                                            remembered retrievals
 *   v2: int n, n × (int namespace, str key, int m, m × double)  per-task learning ledger
 *   v5: int n, n × (int namespace, byte kind, long seq, int+ {@link Annotations} bytes)   annotations, non-empty
 *               only: kind {@value #MEMORY_ANNOTATIONS} of live memory m{seq}, kind {@value #RETRIEVAL_ANNOTATIONS}
 *               of remembered retrieval r{seq}; memories first, then retrievals, each by seq
 *   int CRC32C of everything before it
 * </pre>
 *
 * <p>v2 to v4 kept per-task learning's fields in each retrieval row; v5 keeps them, like any learning state, as
 * annotations whose bytes it does not interpret (v2 to v4 rows are read into the {@code "task"} annotation).
 *
 * Group membership and the namespaces' lists are rebuilt from the memory rows (slot order). Deleted
 * memories and groups are left out (group rows are renumbered to match), so the layout did not change
 * when deletes were added, and every group row has at least one memory row.
 */
final class Snapshot {
  static final int MAGIC = 0x4D4C5353;
  static final int VERSION = 5;
  /** Kinds of a v5 annotations row. */
  static final int MEMORY_ANNOTATIONS = 0;
  static final int RETRIEVAL_ANNOTATIONS = 1;
  /** The first version, without per-task learning; still read, as is v2 (without the note-depth draw). */
  static final int VERSION_1 = 1;
  private static final int FLUSH_BYTES = 1 << 20;

  /** Where replay starts: the snapshot's segment and LSN; {@code clean} if a clean close wrote it. */
  record Position(long segment, long lsn, boolean clean) {}

  private Snapshot() {}

  /**
   * Writes {@code state} to {@code tmp} without forcing it: callers hold every writer out while this
   * runs (it must see one consistent state), then {@link StoreFiles#publish} it outside that lock
   * after forcing.
   */
  static void write(Path tmp, StoreState state, int dimension, long segment, long lsn, boolean clean)
      throws IOException {
    write(tmp, state, dimension, segment, lsn, clean, VERSION);
  }

  /**
   * {@link #write} in layout {@code version}: {@link #VERSION}, or 2 to 4 (which keep only the retrievals' task
   * notes of their annotations and drop the memories' annotations; 2 drops the note-depth draws too) to check that
   * this build still reads what the builds before it wrote.
   */
  static void write(Path tmp, StoreState state, int dimension, long segment, long lsn, boolean clean, int version)
      throws IOException {
    if (version < 2 || version > VERSION) {
      throw new IllegalArgumentException("writes v2 to v" + VERSION + ", not v" + version);
    }
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      Out out = new Out(ch);
      ByteWriter w = out.w;
      w.putInt(MAGIC).putInt(version).putInt(dimension).putLong(segment).putLong(lsn).putLong(state.sequence.get())
          .putByte(clean ? 1 : 0);
      List<NamespaceState> namespaces = state.namespaces.all();
      w.putInt(namespaces.size());
      for (NamespaceState ns : namespaces) {
        w.putString(ns.name);
      }
      int groups = state.groups.size();
      int[] row = new int[groups]; // group index -> snapshot row, -1 if deleted
      int liveGroups = 0;
      for (int i = 0; i < groups; i++) {
        row[i] = state.groups.get(i).deleted ? -1 : liveGroups++;
      }
      w.putInt(liveGroups);
      for (int i = 0; i < groups; i++) {
        GroupTable.Group g = state.groups.get(i);
        if (row[i] >= 0) {
          w.putLong(g.seq).putInt(g.namespace);
          out.maybeFlush();
        }
      }
      MemoryTable t = state.memories;
      int n = t.size();
      int liveMemories = 0;
      for (int s = 0; s < n; s++) {
        liveMemories += t.isDeleted(s) ? 0 : 1;
      }
      w.putInt(liveMemories);
      for (int s = 0; s < n; s++) {
        if (t.isDeleted(s)) {
          continue;
        }
        assert row[t.group(s)] >= 0 : "live memory m" + t.seq(s) + " in deleted group";
        w.putLong(t.seq(s)).putInt(t.namespace(s)).putInt(row[t.group(s)]).putDouble(t.q(s)).putLong(t.visits(s))
            .putLong(t.updatedSeconds(s)).putInt(t.updatedNanos(s));
        if (version >= 4) {
          assert t.outcome(s) != MemoryTable.UNKNOWN_YET : "m" + t.seq(s) + " has no outcome loaded";
          w.putLong(t.createdSeconds(s)).putInt(t.createdNanos(s)).putByte(t.outcome(s));
        }
        out.maybeFlush();
      }
      List<RetrievalBook.Pending> retrievals = new ArrayList<>();
      List<Integer> owners = new ArrayList<>();
      for (NamespaceState ns : namespaces) {
        for (RetrievalBook.Pending p : ns.retrievals.all()) {
          retrievals.add(p);
          owners.add(ns.id);
        }
      }
      w.putInt(retrievals.size());
      for (int i = 0; i < retrievals.size(); i++) {
        RetrievalBook.Pending p = retrievals.get(i);
        RetrievalRecord r = p.record;
        w.putLong(p.seq).putInt(owners.get(i)).putInstant(r.createdAt()).putInstant(r.expiresAt());
        Instant rewardedAt = p.rewardedAt;
        w.putByte(rewardedAt != null ? 1 : 0);
        if (rewardedAt != null) {
          w.putInstant(rewardedAt);
        }
        w.putInt(r.candidates().size());
        for (Candidate c : r.candidates()) {
          w.putString(c.memoryId()).putDouble(c.similarity()).putDouble(c.q()).putDouble(c.score())
              .putByte(c.selected() ? 1 : 0).putDouble(c.probability());
        }
        if (version <= 4) { // the old layouts, for tests of reading them
          TaskNote task = TaskNote.of(r.annotations());
          w.putString(task.context()).putString(task.explored()).putByte(task.explorable() ? 1 : 0)
              .putString(task.assumedUsed());
          if (version >= 3) {
            w.putByte(WalRecord.noteDepthByte(task));
          }
        }
        out.maybeFlush();
      }
      int entries = 0;
      for (NamespaceState ns : namespaces) {
        entries += ns.ledger.size();
      }
      w.putInt(entries);
      int written = 0;
      for (NamespaceState ns : namespaces) {
        for (var e : ns.ledger.entrySet()) { // writers are held out: the map does not change under us
          w.putInt(ns.id).putString(e.getKey()).putInt(e.getValue().length);
          for (double v : e.getValue()) {
            w.putDouble(v);
          }
          written++;
          out.maybeFlush();
        }
      }
      assert written == entries : written + " ledger entries written, " + entries + " counted";
      if (version >= 5) {
        writeAnnotations(out, namespaces, retrievals, owners);
      }
      out.finish();
    }
  }

  /** The v5 annotations section: memories' (by namespace, then seq), then retrievals' (by seq). */
  private static void writeAnnotations(Out out, List<NamespaceState> namespaces, List<RetrievalBook.Pending> retrievals,
      List<Integer> owners) throws IOException {
    ByteWriter w = out.w;
    int n = 0;
    for (NamespaceState ns : namespaces) {
      n += ns.annotations.size(); // writers are held out: the maps do not change under us
    }
    for (RetrievalBook.Pending p : retrievals) {
      n += p.record.annotations().isEmpty() ? 0 : 1;
    }
    w.putInt(n);
    int written = 0;
    for (NamespaceState ns : namespaces) {
      long[] seqs = ns.annotations.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
      for (long seq : seqs) {
        byte[] b = ns.annotations.get(seq).toBytes();
        w.putInt(ns.id).putByte(MEMORY_ANNOTATIONS).putLong(seq).putInt(b.length).putBytes(b, 0, b.length);
        written++;
        out.maybeFlush();
      }
    }
    for (int i = 0; i < retrievals.size(); i++) {
      RetrievalBook.Pending p = retrievals.get(i);
      if (!p.record.annotations().isEmpty()) {
        byte[] b = p.record.annotations().toBytes();
        w.putInt(owners.get(i)).putByte(RETRIEVAL_ANNOTATIONS).putLong(p.seq).putInt(b.length).putBytes(b, 0, b.length);
        written++;
        out.maybeFlush();
      }
    }
    assert written == n : written + " annotation rows written, " + n + " counted";
  }

  /** Loads {@code file} into an empty {@code state}; STORE_CORRUPT if it is not a valid snapshot. */
  static Position read(Path file, int dimension, StoreState state) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size < 40) {
        throw StoreFiles.corrupt(file, "truncated snapshot (" + size + " bytes)");
      }
      In in = new In(ch, size - 4);
      try {
        int magic = in.r(8).getInt();
        if (magic != MAGIC) {
          throw StoreFiles.corrupt(file, String.format("bad magic 0x%08x in snapshot %s (expected 0x%08x v%d)",
              magic, file, MAGIC, VERSION));
        }
        int version = in.current.getInt();
        if (version < VERSION_1 || version > VERSION) {
          throw StoreFiles.corrupt(file, "unknown snapshot version " + version + " (this build reads v1 to v" + VERSION + ")");
        }
        ByteReader r = in.r(29);
        int dim = r.getInt();
        if (dim != dimension) {
          throw StoreFiles.corrupt(file, "snapshot has dimension " + dim + ", store has " + dimension);
        }
        long segment = r.getLong();
        long lsn = r.getLong();
        state.raiseSequence(r.getLong());
        Position pos = new Position(segment, lsn, r.getByte() == 1);
        int namespaces = in.r(4).getCount(Integer.MAX_VALUE, "namespace");
        for (int i = 0; i < namespaces; i++) {
          int len = in.r(4).getCount(1 << 20, "namespace byte");
          NamespaceState ns = state.namespaces.getOrCreate(in.r(len).getStringOfLength(len));
          if (ns.id != i) {
            throw StoreFiles.corrupt(file, "namespace '" + ns.name + "' listed twice in snapshot");
          }
        }
        int groups = in.r(4).getCount(Integer.MAX_VALUE, "group");
        for (int i = 0; i < groups; i++) {
          r = in.r(12);
          long seq = r.getLong();
          NamespaceState ns = namespace(file, state, r.getInt());
          if (i > 0 && seq <= state.groups.get(i - 1).seq) {
            throw StoreFiles.corrupt(file, "snapshot groups out of order at i" + seq);
          }
          ns.groups.add(state.groups.reserve(seq, ns.id));
        }
        int memories = in.r(4).getCount(Integer.MAX_VALUE, "memory");
        MemoryTable t = state.memories;
        for (int i = 0; i < memories; i++) {
          r = in.r(version >= 4 ? 57 : 44);
          long seq = r.getLong();
          NamespaceState ns = namespace(file, state, r.getInt());
          int group = r.getInt();
          if (group < 0 || group >= groups || state.groups.get(group).namespace != ns.id
              || (i > 0 && seq <= t.seq(i - 1))) {
            throw StoreFiles.corrupt(file, "snapshot memory m" + seq + " is out of order or in a bad group " + group);
          }
          int slot = t.reserve(seq, ns.id);
          t.setGroup(slot, group);
          t.setUtility(slot, r.getDouble(), r.getLong(), r.getLong(), r.getInt());
          if (version >= 4) {
            long createdSeconds = r.getLong();
            int createdNanos = r.getInt();
            int outcome = r.getByte();
            MemoryContent.outcome(outcome); // checked: a bad code is corruption
            t.setContent(slot, outcome, createdSeconds, createdNanos);
          }
          state.groups.get(group).members.add(slot);
          ns.memories.add(slot);
        }
        int retrievals = in.r(4).getCount(Integer.MAX_VALUE, "retrieval");
        // restored once the annotations (after the ledger, v5) are read, in this order (the books' bounds apply)
        java.util.LinkedHashMap<Long, Row> rows = new java.util.LinkedHashMap<>();
        for (int i = 0; i < retrievals; i++) {
          Row row = readRetrieval(file, in, state, version);
          if (rows.put(row.pending.seq, row) != null) {
            throw StoreFiles.corrupt(file, "retrieval r" + row.pending.seq + " listed twice in snapshot");
          }
        }
        if (version >= 2) {
          int entries = in.r(4).getCount(Integer.MAX_VALUE, "ledger entry");
          for (int i = 0; i < entries; i++) {
            NamespaceState ns = namespace(file, state, in.r(4).getInt());
            String key = string(in);
            double[] v = new double[in.r(4).getCount(io.memloop.store.MemoryStore.MAX_LEDGER_VALUE, "ledger value")];
            r = in.r(8 * v.length);
            for (int j = 0; j < v.length; j++) {
              v[j] = r.getDouble();
            }
            ns.ledger.put(key, v);
          }
        }
        if (version >= 5) {
          readAnnotations(file, in, state, rows);
        }
        for (Row row : rows.values()) {
          row.ns.retrievals.restore(row.pending);
        }
        in.finish(file);
        return pos;
      } catch (ByteReader.Malformed e) {
        throw StoreFiles.corrupt(file, "malformed snapshot: " + e.getMessage());
      }
    }
  }

  private static String string(In in) throws IOException, ByteReader.Malformed {
    int len = in.r(4).getCount(WriteAheadLog.MAX_RECORD_BYTES, "string byte");
    return in.r(len).getStringOfLength(len);
  }

  /** A retrieval read from the snapshot, restored into its namespace's book once its annotations are known. */
  private static final class Row {
    final NamespaceState ns;
    RetrievalBook.Pending pending;

    Row(NamespaceState ns, RetrievalBook.Pending pending) {
      this.ns = ns;
      this.pending = pending;
    }

    void annotate(Annotations annotations) {
      RetrievalRecord r = pending.record;
      RetrievalBook.Pending p = new RetrievalBook.Pending(pending.seq,
          new RetrievalRecord(r.id(), r.namespace(), r.createdAt(), r.expiresAt(), r.candidates(), annotations));
      p.rewardedAt = pending.rewardedAt;
      pending = p;
    }
  }

  private static Row readRetrieval(Path file, In in, StoreState state, int version)
      throws IOException, ByteReader.Malformed {
    ByteReader r = in.r(37);
    long seq = r.getLong();
    NamespaceState ns = namespace(file, state, r.getInt());
    Instant created = r.getInstant();
    Instant expires = r.getInstant();
    Instant rewardedAt = r.getByte() != 0 ? in.r(12).getInstant() : null;
    int n = in.r(4).getCount(WalRecord.MAX_ITEMS, "candidate");
    List<Candidate> candidates = new ArrayList<>(Math.min(n, 1024));
    for (int c = 0; c < n; c++) {
      String id = string(in);
      r = in.r(33);
      candidates.add(new Candidate(id, r.getDouble(), r.getDouble(), r.getDouble(), r.getByte() != 0, r.getDouble()));
    }
    Annotations annotations = Annotations.EMPTY; // v5: in the annotations section
    if (version >= 2 && version <= 4) { // written by builds before annotations: the task note's fields
      String context = string(in);
      String explored = string(in);
      boolean explorable = in.r(1).getByte() != 0;
      TaskNote task = new TaskNote(context, explored, explorable, string(in));
      if (version >= 3) {
        task = task.withNoteDepth(WalRecord.noteDepth(in.r(1).getByte()));
      }
      annotations = task.into(Annotations.EMPTY);
    }
    RetrievalBook.Pending p =
        new RetrievalBook.Pending(seq, new RetrievalRecord("r" + seq, ns.name, created, expires, candidates, annotations));
    p.rewardedAt = rewardedAt;
    state.raiseSequence(seq);
    return new Row(ns, p);
  }

  private static void readAnnotations(Path file, In in, StoreState state, java.util.Map<Long, Row> rows)
      throws IOException, ByteReader.Malformed {
    int n = in.r(4).getCount(Integer.MAX_VALUE, "annotation row");
    for (int i = 0; i < n; i++) {
      ByteReader r = in.r(17);
      NamespaceState ns = namespace(file, state, r.getInt());
      int kind = r.getByte();
      long seq = r.getLong();
      int len = r.getCount(WriteAheadLog.MAX_RECORD_BYTES, "annotation byte");
      Annotations a = WalRecord.annotations(in.r(len).getBytesOfLength(len));
      if (a.isEmpty()) {
        throw StoreFiles.corrupt(file, "snapshot lists empty annotations for " + (kind == MEMORY_ANNOTATIONS ? "m" : "r") + seq);
      }
      if (kind == MEMORY_ANNOTATIONS) {
        if (state.liveSlot(ns, seq) < 0 || ns.annotations.putIfAbsent(seq, a) != null) {
          throw StoreFiles.corrupt(file, "snapshot annotates memory m" + seq + " which namespace " + ns.name
              + " does not hold, or twice");
        }
      } else if (kind == RETRIEVAL_ANNOTATIONS) {
        Row row = rows.get(seq);
        if (row == null || row.ns != ns || !row.pending.record.annotations().isEmpty()) {
          throw StoreFiles.corrupt(file, "snapshot annotates retrieval r" + seq + " which namespace " + ns.name
              + " does not hold, or twice");
        }
        row.annotate(a);
      } else {
        throw StoreFiles.corrupt(file, "snapshot annotation row of unknown kind " + kind);
      }
    }
  }

  private static NamespaceState namespace(Path file, StoreState state, int id) {
    List<NamespaceState> all = state.namespaces.all();
    if (id < 0 || id >= all.size()) {
      throw StoreFiles.corrupt(file, "snapshot refers to unknown namespace #" + id);
    }
    return all.get(id);
  }

  /** Buffered, checksummed output. */
  private static final class Out {
    final ByteWriter w = new ByteWriter(FLUSH_BYTES + 4096);
    private final FileChannel ch;
    private final CRC32C crc = new CRC32C();

    Out(FileChannel ch) {
      this.ch = ch;
    }

    void maybeFlush() throws IOException {
      if (w.length() >= FLUSH_BYTES) {
        flush();
      }
    }

    private void flush() throws IOException {
      crc.update(w.array(), 0, w.length());
      ByteBuffer b = ByteBuffer.wrap(w.array(), 0, w.length());
      while (b.hasRemaining()) {
        ch.write(b);
      }
      w.reset();
    }

    void finish() throws IOException {
      flush();
      w.putInt((int) crc.getValue());
      ByteBuffer b = ByteBuffer.wrap(w.array(), 0, 4);
      while (b.hasRemaining()) {
        ch.write(b);
      }
    }
  }

  /** Reads the checksummed body in fixed-size steps; {@link #r} returns a reader over the next n bytes. */
  private static final class In {
    private final FileChannel ch;
    private final long limit;
    private final CRC32C crc = new CRC32C();
    private byte[] buf = new byte[FLUSH_BYTES];
    private int bufPos;
    private int bufLen;
    private long filePos;
    ByteReader current = new ByteReader(buf, 0, 0);

    In(FileChannel ch, long limit) {
      this.ch = ch;
      this.limit = limit;
    }

    ByteReader r(int n) throws IOException, ByteReader.Malformed {
      if (bufLen - bufPos < n) {
        refill(n);
      }
      current = new ByteReader(buf, bufPos, n);
      bufPos += n;
      return current;
    }

    private void refill(int n) throws IOException, ByteReader.Malformed {
      int kept = bufLen - bufPos;
      if (buf.length < n) {
        buf = Arrays.copyOf(buf, n);
      }
      System.arraycopy(buf, bufPos, buf, 0, kept);
      bufPos = 0;
      bufLen = kept;
      int want = (int) Math.min(buf.length - kept, limit - filePos);
      ByteBuffer b = ByteBuffer.wrap(buf, kept, want);
      while (b.hasRemaining()) {
        if (ch.read(b, filePos + b.position() - kept) < 0) {
          break;
        }
      }
      int got = b.position() - kept;
      crc.update(buf, kept, got);
      filePos += got;
      bufLen += got;
      if (bufLen < n) {
        throw new ByteReader.Malformed("snapshot ends early at byte " + filePos + " (needed " + n + " more bytes)");
      }
    }

    void finish(Path file) throws IOException {
      if (bufPos != bufLen || filePos != limit) {
        throw StoreFiles.corrupt(file, "snapshot has " + (limit - filePos + bufLen - bufPos) + " unexpected trailing bytes");
      }
      ByteBuffer b = ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining() && ch.read(b, limit + b.position()) >= 0) {
        // read the 4-byte trailer
      }
      int stored = b.getInt(0);
      if (stored != (int) crc.getValue()) {
        throw StoreFiles.corrupt(file, String.format("checksum mismatch in snapshot (stored 0x%08x, computed 0x%08x)",
            stored, (int) crc.getValue()));
      }
    }
  }
}
