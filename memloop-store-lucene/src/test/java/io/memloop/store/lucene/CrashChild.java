package io.memloop.store.lucene;

import io.memloop.Candidate;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.Vectors;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The process {@link CrashRecoveryTest} kills: writes forever from several threads and prints one
 * line per acknowledged write, after the store call returned (lowercase lines announce a call about
 * to be made, so the parent knows which batch may or may not have been stored):
 *
 * <pre>
 *   I ns memoryId thread i qBits      insert acknowledged (qBits = initial Q as raw long hex)
 *   S ns retrievalId memoryId         retrieval saved (not synced on its own)
 *   R ns retrievalId memoryId qBits   reward applied; qBits = the memory's new Q
 *   D ns memoryId                     delete acknowledged (every fourth memory, after its reward)
 *   b seed batch n                    about to bulk insert batch (namespace "bulk", n memories)
 *   B seed batch id,id,...            bulk insert acknowledged
 *   e seed episode seedId retrievalId about to end an episode: reward its retrieval (which selected memory
 *                                     seedId, acknowledged) and insert its lesson, as one durable unit
 *   E seed episode seedId lessonId    the episode's unit acknowledged
 * </pre>
 *
 * Each memory is rewarded at most once, so an acknowledged reward fixes the memory's final Q.
 */
public final class CrashChild {
  static final int DIM = 16;
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  static final LuceneStoreOptions OPTIONS = LuceneStoreOptions.builder()
      .commitEveryInserts(16).refreshEveryInserts(8).checkpointEveryBytes(16 << 10).build();

  private CrashChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int threads = Integer.parseInt(args[1]);
    long seed = Long.parseLong(args[2]);
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    LuceneStore store = LuceneStore.open(dir, DIM, OPTIONS);
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread th = new Thread(() -> run(store, out, thread, new SplittableRandom(seed * 31 + thread)), "writer-" + t);
      th.start();
    }
    Thread bulk = new Thread(() -> runBulk(store, out, seed, new SplittableRandom(~seed)), "bulk-writer");
    bulk.start();
    Thread episodes = new Thread(() -> runEpisodes(store, out, seed, new SplittableRandom(seed ^ 0xE915L)), "episode-writer");
    episodes.start();
    // the writers run until the parent kills this process
  }

  static float[] vector(SplittableRandom rnd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return Vectors.normalized(v, "v");
  }

  static String experience(int thread, int i) {
    return "experience of writer " + thread + " #" + i;
  }

  static final String BULK = "bulk";
  static final int BULK_BATCH = 25;

  static String bulkExperience(long seed, int batch, int i) {
    return bulkPrefix(seed, batch) + i;
  }

  static String bulkPrefix(long seed, int batch) {
    return "bulk s" + seed + " batch " + batch + " #";
  }

  private static void runBulk(LuceneStore store, PrintStream out, long seed, SplittableRandom rnd) {
    for (int b = 0; ; b++) {
      List<NewMemory> batch = new java.util.ArrayList<>();
      for (int i = 0; i < BULK_BATCH; i++) {
        batch.add(new NewMemory(BULK, "bulk intent", vector(rnd), bulkExperience(seed, b, i), Outcome.SUCCESS, 0, T0));
      }
      print(out, "b " + seed + " " + b + " " + BULK_BATCH);
      List<Memory> stored = store.insertAll(batch, 0.97);
      print(out, "B " + seed + " " + b + " " + String.join(",", stored.stream().map(Memory::id).toList()));
    }
  }

  static final String EPISODES = "episodes";

  static String lesson(long seed, int episode) {
    return "lesson s" + seed + " #" + episode;
  }

  /** Episodes ended as {@code MemLoop.endEpisode} does: a reward and an insert in one {@link LuceneStore#durablyTogether} unit. */
  private static void runEpisodes(LuceneStore store, PrintStream out, long seed, SplittableRandom rnd) {
    for (int e = 0; ; e++) {
      Memory seen = store.insert(new NewMemory(EPISODES, "episode intent", vector(rnd), "seen s" + seed + " #" + e,
          Outcome.SUCCESS, 0, T0), 2.0);
      RetrievalRecord r = store.saveRetrieval(new RetrievalRecordDraft(EPISODES, T0, T0.plusSeconds(3600),
          List.of(new Candidate(seen.id(), 0.9, 0, 1, true, 1))));
      print(out, "e " + seed + " " + e + " " + seen.id() + " " + r.id());
      NewMemory lesson = new NewMemory(EPISODES, "episode intent", vector(rnd), lesson(seed, e), Outcome.SUCCESS, 0, T0);
      Memory stored = store.durablyTogether(() -> {
        store.applyReward(EPISODES, r.id(), T0.plusSeconds(1), (id, u) -> new Utility(0.5, u.visits() + 1));
        return store.insert(lesson, 2.0);
      });
      print(out, "E " + seed + " " + e + " " + seen.id() + " " + stored.id());
    }
  }

  private static void run(LuceneStore store, PrintStream out, int thread, SplittableRandom rnd) {
    String ns = "ns" + (thread % 2);
    for (int i = 0; ; i++) {
      double q0 = rnd.nextDouble();
      Memory m = store.insert(new NewMemory(ns, "intent", vector(rnd), experience(thread, i), Outcome.SUCCESS, q0, T0), 0.97);
      print(out, "I " + ns + " " + m.id() + " " + thread + " " + i + " " + Long.toHexString(Double.doubleToRawLongBits(q0)));
      RetrievalRecord r = store.saveRetrieval(new RetrievalRecordDraft(ns, T0, T0.plusSeconds(3600),
          List.of(new Candidate(m.id(), 0.9, q0, 1, true, 1))));
      print(out, "S " + ns + " " + r.id() + " " + m.id());
      double delta = rnd.nextDouble() / 3;
      RewardOutcome o = store.applyReward(ns, r.id(), T0.plusSeconds(1), (id, u) -> new Utility(u.q() + delta, u.visits() + 1));
      double q = ((RewardOutcome.Applied) o).changes().get(0).qAfter();
      print(out, "R " + ns + " " + r.id() + " " + m.id() + " " + Long.toHexString(Double.doubleToRawLongBits(q)));
      if (i % 4 == 3) {
        if (!store.delete(ns, m.id())) {
          throw new AssertionError("delete of " + m.id() + " found nothing");
        }
        print(out, "D " + ns + " " + m.id());
      }
    }
  }

  private static void print(PrintStream out, String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }
}
