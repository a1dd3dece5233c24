package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.T0;
import static io.memloop.store.lucene.StoreFixtures.fingerprint;
import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static io.memloop.store.lucene.StoreFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Utility;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged files of every kind the store writes (metadata, log segments, snapshots, every Lucene index
 * file, compound files and segments_N included): truncations and single-byte flips at several offsets,
 * headers and checksum footers among them, on a store closed cleanly and on one that crashed after a
 * checkpoint. Every case must end either refused as STORE_CORRUPT with a message naming the damaged
 * file, leaving every file byte-identical, or opened with exactly the undamaged store's logical
 * content (memories, texts, vectors, Q, visits, pending retrievals). Never opened with other content.
 */
class DamagedFilesTest {
  static final int DIM = 8;
  static final LuceneStoreOptions OPTIONS = LuceneStoreOptions.builder()
      .commitEveryInserts(1_000_000).checkpointEveryBytes(1 << 30).build();

  @TempDir Path tmp;

  @Test
  void cleanlyClosedStore_damageIsRefusedOrHarmless() throws IOException {
    Path template = tmp.resolve("clean");
    build(template, false);
    checkEveryDamage(template);
  }

  @Test
  void crashedStore_damageIsRefusedOrHarmless() throws IOException {
    Path template = tmp.resolve("crashed");
    build(template, true);
    checkEveryDamage(template);
  }

  /**
   * Two namespaces, rewards, pending retrievals, a checkpoint (index commit and snapshot), then more log. The saved
   * retrievals' deferred sync is driven by hand: with the store's own scheduler thread, a sync due 50 ms after the last
   * save could run before or during the crash, so the crashed template, its reference copy and its damaged copies were
   * not always of one state (CI once saw five tail damages of the last log segment open without its last record).
   */
  private static void build(Path dir, boolean crash) {
    RetrievalSyncTest.ManualScheduler scheduler = new RetrievalSyncTest.ManualScheduler();
    LuceneStore store = LuceneStore.open(dir, DIM, OPTIONS, scheduler);
    SplittableRandom rnd = new SplittableRandom(17);
    List<Memory> a = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      a.add(insert(store, i % 3 == 0 ? "team-b" : "team-a", randomUnit(rnd, DIM), "experience " + i, i / 30.0));
    }
    var r = select(store, "team-a", a.get(1).id(), a.get(2).id());
    store.applyReward("team-a", r.id(), T0, (id, u) -> new Utility(u.q() + 0.3 * (1 - u.q()), u.visits() + 1));
    select(store, "team-a", a.get(4).id());
    store.saveSettings("team-a", io.memloop.MemLoopConfig.preset(io.memloop.Preset.MEMRL).toSettings());
    store.checkpoint();
    for (int i = 30; i < 45; i++) {
      insert(store, "team-a", randomUnit(rnd, DIM), "after the checkpoint " + i, 0);
    }
    var r2 = select(store, "team-b", a.get(0).id());
    store.applyReward("team-b", r2.id(), T0, (id, u) -> new Utility(u.q() - 0.5, u.visits() + 1));
    select(store, "team-b", a.get(3).id());
    if (crash) {
      scheduler.runAll(); // the saved retrievals' deferred sync, on this thread: no sync may run after the crash
      store.crashForTesting();
    } else {
      store.close();
    }
  }

  /** Memories of every namespace in full, and the counts (pending retrievals included). */
  static String logical(LuceneStore store) {
    StringBuilder b = new StringBuilder();
    for (String ns : new TreeSet<>(store.namespaces())) {
      b.append(ns).append(' ').append(store.counts(ns, T0)).append(' ').append(store.settings(ns)).append('\n');
      store.forEachMemory(ns, m -> b.append(m.id()).append(' ').append(m.intentId()).append(' ')
          .append(m.intentText()).append(' ').append(Arrays.toString(m.intentEmbedding())).append(' ')
          .append(m.experience()).append(' ').append(m.outcome()).append(' ').append(m.q()).append(' ')
          .append(m.visits()).append(' ').append(m.createdAt()).append('\n'));
    }
    return b.toString();
  }

  private void checkEveryDamage(Path template) throws IOException {
    String expected;
    Path reference = tmp.resolve("reference");
    copy(template, reference);
    try (LuceneStore s = LuceneStore.open(reference, OPTIONS)) {
      expected = logical(s);
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(template)) {
      files = walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals(StoreFiles.LOCK)).sorted().toList();
    }
    assertThat(files).extracting(p -> p.getFileName().toString())
        .as("every file kind is damaged somewhere")
        .anyMatch(n -> n.endsWith(".wal")).anyMatch(n -> n.startsWith("segments_")).anyMatch(n -> n.equals("memloop.meta"))
        .anyMatch(n -> n.equals(SettingsFile.NAME)).anyMatch(n -> n.endsWith(".snap"))
        .anyMatch(n -> n.endsWith(".cfs") || n.endsWith(".vec") || n.endsWith(".fdt"));
    List<String> failures = new ArrayList<>();
    int cases = 0;
    int refused = 0;
    for (Path file : files) {
      long size = Files.size(file);
      List<long[]> damages = new ArrayList<>(); // {kind (0 truncate, 1 flip), offset}
      for (long cut : new long[] {0, size / 2, size - 1, size - 16}) {
        if (cut >= 0 && cut < size) {
          damages.add(new long[] {0, cut});
        }
      }
      for (long at : new long[] {0, 5, 24, 28, size / 3, size / 2, size - 20, size - 8, size - 1}) {
        if (at >= 0 && at < size) {
          damages.add(new long[] {1, at});
        }
      }
      for (long[] d : damages) {
        cases++;
        Path copy = tmp.resolve("case-" + cases);
        copy(template, copy);
        Path target = copy.resolve(template.relativize(file));
        damage(target, d[0] == 0, d[1]);
        String what = template.relativize(file) + (d[0] == 0 ? " truncated to " : " flipped at ") + d[1];
        Map<String, String> before = fingerprint(copy);
        try (LuceneStore s = LuceneStore.open(copy, OPTIONS)) {
          String content = logical(s);
          if (!content.equals(expected)) {
            failures.add(what + ": opened with different content");
          }
        } catch (MemLoopException e) {
          refused++;
          if (e.reason() != MemLoopException.Reason.STORE_CORRUPT) {
            failures.add(what + ": " + e.reason() + " " + e.getMessage());
          } else if (!e.getMessage().contains(file.getFileName().toString())
              && !e.getMessage().contains(target.getParent().toString())) {
            failures.add(what + ": refused without naming the file: " + e.getMessage());
          } else if (!fingerprint(copy).equals(before)) {
            failures.add(what + ": refused, but files changed");
          }
        } catch (RuntimeException e) {
          failures.add(what + ": " + e);
        }
        deleteTree(copy);
      }
    }
    assertThat(failures).as("%d damage cases, %d refused", cases, refused).isEmpty();
    assertThat(cases).as("damage cases").isGreaterThan(50);
  }

  private static void damage(Path file, boolean truncate, long at) throws IOException {
    if (truncate) {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(at);
      }
    } else {
      byte[] b = Files.readAllBytes(file);
      b[(int) at] ^= 0x10;
      Files.write(file, b);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path t = to.resolve(from.relativize(p));
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
