package io.memloop.store.lucene;

import io.memloop.Candidate;
import io.memloop.policy.TaskNote;
import io.memloop.store.Annotations;
import io.memloop.store.RetrievalRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The payload of one write-ahead-log record: one mutation, applied as a whole or not at all. Records
 * carry absolute values (a reward records each new Q, not a delta), so replaying the log in order
 * rebuilds exactly the state the live store had. Layout after the type byte (little-endian):
 *
 * <pre>
 *   1 INSERT     long memorySeq, long groupSeq, byte newGroup, str namespace, double initialQ,
 *                int+ {@link MemoryContent} bytes
 *   2 RETRIEVAL  long seq, str namespace, instant created, instant expires,
 *                int n, n × (str memoryId, double sim, double q, double score, byte selected, double p)
 *   3 REWARD     long retrievalSeq, str namespace, instant at, int n, n × (long memorySeq, double q, long visits)
 *   4 SEQUENCE   long floor                      ids handed out from now on are above floor
 *   5 DELETE     long memorySeq, long groupSeq, byte groupEmptied, str namespace
 *   6 BATCH      int n, n × (the INSERT layout after its type byte)      one {@code insertAll} call
 *   7 RETRIEVAL_TASK  the RETRIEVAL layout, then str context, str explored, byte explorable, str assumedUsed
 *                (a retrieval with per-task learning; without it, type 2 is written as before)
 *   8 LEDGER     str namespace, int n, n × (str key, int m, m × double)     absolute values
 *   9 RETRIEVAL_DEPTH  the RETRIEVAL_TASK layout, then byte noteDepth+1 (a retrieval whose note-depth draw was
 *                made; otherwise type 7 as before)
 *  10 EDIT       long memorySeq, str namespace, instant at, int+ {@link MemoryContent} bytes (the whole new content)
 *  11 ANNOTATE   str namespace, int n, n × (long memorySeq, int+ {@link Annotations} bytes)   each memory's whole
 *                annotations, absolute (zero bytes: it has none now)
 *  12 RETRIEVAL_ANNOTATED  the RETRIEVAL layout, then int+ {@link Annotations} bytes (a retrieval with annotations;
 *                without them, type 2 is written as before)
 *  13 LEDGER_DELETE  str namespace, int n, n × str key     keys removed from the ledger (only keys it held)
 * </pre>
 *
 * Types 5, 6, 9 to 13 were added without a version change: a store written before them opens unchanged, and
 * a build that predates them refuses a log holding them ("unknown log record type"). Types 7 and 9 are no longer
 * written (learning state is {@link Annotations} now, which type 12 carries without interpreting them) but still
 * read: their task fields become the {@code "task"} annotation ({@link TaskNote#into}).
 */
sealed interface WalRecord {
  int INSERT = 1;
  int RETRIEVAL = 2;
  int REWARD = 3;
  int SEQUENCE = 4;
  int DELETE = 5;
  int BATCH = 6;
  int RETRIEVAL_TASK = 7;
  int LEDGER = 8;
  int RETRIEVAL_DEPTH = 9;
  int EDIT = 10;
  int ANNOTATE = 11;
  int RETRIEVAL_ANNOTATED = 12;
  int LEDGER_DELETE = 13;
  /** The highest type this build writes and reads. */
  int LAST_TYPE = LEDGER_DELETE;
  /** Upper bound on candidates or updates in one record; a sanity check against garbage counts. */
  int MAX_ITEMS = 1 << 24;

  void encode(ByteWriter w);

  /** A memory was stored; {@code newGroup} says whether {@code groupSeq} was created by it. */
  record Insert(long memorySeq, long groupSeq, boolean newGroup, String namespace, double initialQ, byte[] content)
      implements WalRecord {
    @Override
    public void encode(ByteWriter w) {
      encodeBody(w.putByte(INSERT));
    }

    void encodeBody(ByteWriter w) {
      w.putLong(memorySeq).putLong(groupSeq).putByte(newGroup ? 1 : 0).putString(namespace)
          .putDouble(initialQ).putInt(content.length).putBytes(content, 0, content.length);
    }

    static Insert decodeBody(ByteReader r) throws ByteReader.Malformed {
      long memorySeq = r.getLong();
      long groupSeq = r.getLong();
      boolean newGroup = r.getByte() != 0;
      String ns = r.getString();
      double q = r.getDouble();
      return new Insert(memorySeq, groupSeq, newGroup, ns, q, r.getBytes());
    }
  }

  /**
   * The memories of one bulk insert, in order, as one record: replay applies all of them or, if the
   * record was torn by a crash, none.
   */
  record Batch(List<Insert> inserts) implements WalRecord {
    @Override
    public void encode(ByteWriter w) {
      w.putByte(BATCH).putInt(inserts.size());
      for (Insert ins : inserts) {
        ins.encodeBody(w);
      }
    }
  }

  /**
   * Memory {@code memorySeq} of group {@code groupSeq} was deleted; {@code groupEmptied} says whether
   * it was the group's last memory (the group went with it).
   */
  record Delete(long memorySeq, long groupSeq, boolean groupEmptied, String namespace) implements WalRecord {
    @Override
    public void encode(ByteWriter w) {
      w.putByte(DELETE).putLong(memorySeq).putLong(groupSeq).putByte(groupEmptied ? 1 : 0).putString(namespace);
    }
  }

  /**
   * Memory {@code memorySeq}'s content was replaced by {@code content} (its experience edited) at {@code at}, which
   * becomes its updated-at; Q and visits stay.
   */
  record Edit(long memorySeq, String namespace, Instant at, byte[] content) implements WalRecord {
    @Override
    public void encode(ByteWriter w) {
      w.putByte(EDIT).putLong(memorySeq).putString(namespace).putInstant(at).putInt(content.length)
          .putBytes(content, 0, content.length);
    }
  }

  /** A retrieval was saved under id {@code "r" + seq}. */
  record RetrievalSaved(long seq, RetrievalRecord retrieval) implements WalRecord {
    @Override
    public void encode(ByteWriter w) {
      Annotations annotations = retrieval.annotations();
      w.putByte(annotations.isEmpty() ? RETRIEVAL : RETRIEVAL_ANNOTATED).putLong(seq).putString(retrieval.namespace())
          .putInstant(retrieval.createdAt()).putInstant(retrieval.expiresAt()).putInt(retrieval.candidates().size());
      for (Candidate c : retrieval.candidates()) {
        w.putString(c.memoryId()).putDouble(c.similarity()).putDouble(c.q()).putDouble(c.score())
            .putByte(c.selected() ? 1 : 0).putDouble(c.probability());
      }
      if (!annotations.isEmpty()) {
        byte[] b = annotations.toBytes();
        w.putInt(b.length).putBytes(b, 0, b.length);
      }
    }
  }

  /**
   * The annotations of memories {@code memorySeqs} of {@code namespace} became {@code annotations} (each whole;
   * {@link Annotations#EMPTY}: none).
   */
  record Annotate(String namespace, long[] memorySeqs, Annotations[] annotations) implements WalRecord {
    public Annotate {
      assert memorySeqs.length == annotations.length;
    }

    @Override
    public void encode(ByteWriter w) {
      w.putByte(ANNOTATE).putString(namespace).putInt(memorySeqs.length);
      for (int i = 0; i < memorySeqs.length; i++) {
        byte[] b = annotations[i].toBytes();
        w.putLong(memorySeqs[i]).putInt(b.length).putBytes(b, 0, b.length);
      }
    }
  }

  /** Retrieval {@code retrievalSeq} was claimed at {@code at}; each listed memory got the new utility. */
  record Rewarded(long retrievalSeq, String namespace, Instant at, long[] memorySeqs, double[] qs, long[] visits)
      implements WalRecord {
    public Rewarded {
      assert memorySeqs.length == qs.length && qs.length == visits.length;
    }

    @Override
    public void encode(ByteWriter w) {
      w.putByte(REWARD).putLong(retrievalSeq).putString(namespace).putInstant(at).putInt(memorySeqs.length);
      for (int i = 0; i < memorySeqs.length; i++) {
        w.putLong(memorySeqs[i]).putDouble(qs[i]).putLong(visits[i]);
      }
    }
  }

  /** Per-task learning statistics of {@code namespace} were set to these absolute values. */
  record LedgerPut(String namespace, Map<String, double[]> values) implements WalRecord {
    @Override
    public void encode(ByteWriter w) {
      w.putByte(LEDGER).putString(namespace).putInt(values.size());
      for (Map.Entry<String, double[]> e : values.entrySet()) {
        w.putString(e.getKey()).putInt(e.getValue().length);
        for (double v : e.getValue()) {
          w.putDouble(v);
        }
      }
    }
  }

  /** Keys {@code keys} were removed from the per-task learning ledger of {@code namespace}. */
  record LedgerDelete(String namespace, List<String> keys) implements WalRecord {
    @Override
    public void encode(ByteWriter w) {
      w.putByte(LEDGER_DELETE).putString(namespace).putInt(keys.size());
      for (String key : keys) {
        w.putString(key);
      }
    }
  }

  /**
   * Written once per open: no id at or below {@code floor} will be handed out. After an unclean
   * shutdown the floor is raised past any id that may have been seen but not logged.
   */
  record SequenceFloor(long floor) implements WalRecord {
    @Override
    public void encode(ByteWriter w) {
      w.putByte(SEQUENCE).putLong(floor);
    }
  }

  /** {@link Annotations#fromBytes}, with bad bytes reported as a malformed record. */
  static Annotations annotations(byte[] b) throws ByteReader.Malformed {
    try {
      return Annotations.fromBytes(b);
    } catch (IllegalArgumentException e) {
      throw new ByteReader.Malformed(e.getMessage());
    }
  }

  /** {@link TaskNote#noteDepth} as stored: one more, in an unsigned byte. */
  static int noteDepthByte(TaskNote task) {
    return task.noteDepth() + 1;
  }

  /** A stored {@link TaskNote#noteDepth}, checked: a byte outside 0..2 is corruption, not a draw. */
  static int noteDepth(int stored) throws ByteReader.Malformed {
    if (stored > TaskNote.WHOLE + 1) {
      throw new ByteReader.Malformed("note depth byte " + stored + " is not 0, 1 or 2");
    }
    return stored - 1;
  }

  static WalRecord decode(byte[] b, int off, int len) throws ByteReader.Malformed {
    ByteReader r = new ByteReader(b, off, len);
    int type = r.getByte();
    WalRecord out = switch (type) {
      case INSERT -> Insert.decodeBody(r);
      case BATCH -> {
        int n = r.getCount(MAX_ITEMS, "batch insert");
        List<Insert> inserts = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
          inserts.add(Insert.decodeBody(r));
        }
        yield new Batch(inserts);
      }
      case DELETE -> {
        long memorySeq = r.getLong();
        long groupSeq = r.getLong();
        boolean emptied = r.getByte() != 0;
        yield new Delete(memorySeq, groupSeq, emptied, r.getString());
      }
      case RETRIEVAL, RETRIEVAL_TASK, RETRIEVAL_DEPTH, RETRIEVAL_ANNOTATED -> {
        long seq = r.getLong();
        String ns = r.getString();
        Instant created = r.getInstant();
        Instant expires = r.getInstant();
        int n = r.getCount(MAX_ITEMS, "candidate");
        List<Candidate> candidates = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
          candidates.add(new Candidate(r.getString(), r.getDouble(), r.getDouble(), r.getDouble(), r.getByte() != 0,
              r.getDouble()));
        }
        Annotations annotations = Annotations.EMPTY;
        if (type == RETRIEVAL_ANNOTATED) {
          annotations = annotations(r.getBytes());
        } else if (type != RETRIEVAL) { // written by builds before annotations: the task note's fields
          TaskNote task = new TaskNote(r.getString(), r.getString(), r.getByte() != 0, r.getString());
          if (type == RETRIEVAL_DEPTH) {
            task = task.withNoteDepth(noteDepth(r.getByte()));
          }
          annotations = task.into(Annotations.EMPTY);
        }
        yield new RetrievalSaved(seq, new RetrievalRecord("r" + seq, ns, created, expires, candidates, annotations));
      }
      case REWARD -> {
        long seq = r.getLong();
        String ns = r.getString();
        Instant at = r.getInstant();
        int n = r.getCount(MAX_ITEMS, "update");
        long[] memorySeqs = new long[n];
        double[] qs = new double[n];
        long[] visits = new long[n];
        for (int i = 0; i < n; i++) {
          memorySeqs[i] = r.getLong();
          qs[i] = r.getDouble();
          visits[i] = r.getLong();
        }
        yield new Rewarded(seq, ns, at, memorySeqs, qs, visits);
      }
      case SEQUENCE -> new SequenceFloor(r.getLong());
      case EDIT -> {
        long memorySeq = r.getLong();
        String ns = r.getString();
        Instant at = r.getInstant();
        yield new Edit(memorySeq, ns, at, r.getBytes());
      }
      case ANNOTATE -> {
        String ns = r.getString();
        int n = r.getCount(MAX_ITEMS, "annotated memory");
        long[] seqs = new long[n];
        Annotations[] annotations = new Annotations[n];
        for (int i = 0; i < n; i++) {
          seqs[i] = r.getLong();
          annotations[i] = annotations(r.getBytes());
        }
        yield new Annotate(ns, seqs, annotations);
      }
      case LEDGER -> {
        String ns = r.getString();
        int n = r.getCount(MAX_ITEMS, "ledger entry");
        Map<String, double[]> values = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
          String key = r.getString();
          double[] v = new double[r.getCount(io.memloop.store.MemoryStore.MAX_LEDGER_VALUE, "ledger value")];
          for (int j = 0; j < v.length; j++) {
            v[j] = r.getDouble();
          }
          values.put(key, v);
        }
        yield new LedgerPut(ns, values);
      }
      case LEDGER_DELETE -> {
        String ns = r.getString();
        int n = r.getCount(MAX_ITEMS, "ledger key");
        List<String> keys = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
          keys.add(r.getString());
        }
        yield new LedgerDelete(ns, keys);
      }
      default -> throw new ByteReader.Malformed("unknown log record type " + type);
    };
    r.expectEnd("log record type " + type);
    return out;
  }
}
