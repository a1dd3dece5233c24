package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.fingerprint;
import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Preset;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 15: a store's recorded settings are bound to it. Deleting {@code memloop.settings}
 * silently dropped every namespace's configuration, and a valid file copied from another store was
 * accepted; both are now refused on open like any other damaged file (STORE_CORRUPT naming the file,
 * nothing changed). Stores written before the binding (v1 metadata, v1 settings) still open, and are
 * migrated to it.
 */
class SettingsBindingTest {
  static final int DIM = 8;
  static final Map<String, String> MEMRL = MemLoopConfig.preset(Preset.MEMRL).toSettings();

  @TempDir Path tmp;

  private static Path storeWithSettings(Path dir, long seed) {
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      insert(store, "team-a", randomUnit(new SplittableRandom(seed), DIM), "experience", 0);
      store.saveSettings("team-a", MEMRL);
    }
    return dir;
  }

  @Test
  void deletedSettingsFile_isRefusedAsDamage_andChangesNothing() throws IOException {
    Path dir = storeWithSettings(tmp.resolve("a"), 1);
    Files.delete(dir.resolve(SettingsFile.NAME));
    assertRefused(dir, "settings file is missing", SettingsFile.NAME);
  }

  @Test
  void settingsFileCopiedFromAnotherStore_isRefused() throws IOException {
    Path a = storeWithSettings(tmp.resolve("a"), 1);
    Path b = storeWithSettings(tmp.resolve("b"), 2);
    Files.copy(b.resolve(SettingsFile.NAME), a.resolve(SettingsFile.NAME), StandardCopyOption.REPLACE_EXISTING);
    assertRefused(a, "belongs to store", "copied from another store", SettingsFile.NAME);
  }

  @Test
  void settingsFileCopiedIntoAStoreThatHadNone_isRefused() throws IOException {
    Path a = tmp.resolve("a");
    try (LuceneStore store = LuceneStore.open(a, DIM)) {
      insert(store, "team-a", randomUnit(new SplittableRandom(1), DIM), "experience", 0);
    }
    Path b = storeWithSettings(tmp.resolve("b"), 2);
    Files.copy(b.resolve(SettingsFile.NAME), a.resolve(SettingsFile.NAME));
    assertRefused(a, "belongs to store", SettingsFile.NAME);
  }

  @Test
  void storeWithoutSettings_opens_andItsFirstSettingsAreBound() throws IOException {
    Path dir = tmp.resolve("a");
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      insert(store, "team-a", randomUnit(new SplittableRandom(1), DIM), "experience", 0);
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.settings("team-a")).isEmpty();
      store.saveSettings("team-a", MEMRL);
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.settings("team-a")).contains(MEMRL);
    }
    Files.delete(dir.resolve(SettingsFile.NAME));
    assertRefused(dir, "settings file is missing");
  }

  @Test
  void oldFormatStore_opensWithItsSettings_andIsMigratedToTheBinding() throws IOException {
    Path dir = storeWithSettings(tmp.resolve("a"), 1);
    Path other = storeWithSettings(tmp.resolve("b"), 2);
    downgradeToV1(dir);
    downgradeToV1(other);
    assertThat(StoreMeta.read(dir.resolve(StoreFiles.META)).storeId()).isNull();

    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.settings("team-a")).contains(MEMRL);
      assertThat(store.get("team-a", "m2")).isPresent();
    }
    StoreMeta migrated = StoreMeta.read(dir.resolve(StoreFiles.META));
    assertThat(migrated.formatVersion()).isEqualTo(StoreMeta.CURRENT_VERSION);
    assertThat(migrated.storeId()).isNotNull();
    assertThat(migrated.settingsRecorded()).isTrue();
    assertThat(migrated.legacySettings()).isFalse();
    assertThat(Files.readString(dir.resolve(SettingsFile.NAME))).startsWith("MLST 2 ").contains(migrated.storeId().toString());
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.settings("team-a")).contains(MEMRL);
    }

    // once migrated, an old-format file from another store is foreign, and a missing one is damage
    Files.copy(other.resolve(SettingsFile.NAME), dir.resolve(SettingsFile.NAME), StandardCopyOption.REPLACE_EXISTING);
    assertRefused(dir, "has no store id", SettingsFile.NAME);
    Files.delete(dir.resolve(SettingsFile.NAME));
    assertRefused(dir, "settings file is missing");
  }

  @Test
  void oldFormatStoreWithoutSettings_opens_andIsMigrated() throws IOException {
    Path dir = tmp.resolve("a");
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      insert(store, "team-a", randomUnit(new SplittableRandom(1), DIM), "experience", 0);
    }
    downgradeToV1(dir);
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.settings("team-a")).isEmpty();
    }
    StoreMeta migrated = StoreMeta.read(dir.resolve(StoreFiles.META));
    assertThat(migrated.storeId()).isNotNull();
    assertThat(migrated.settingsRecorded()).isFalse();
  }

  @Test
  void migrationInterruptedAfterTheMetadata_isFinishedByTheNextOpen() throws IOException {
    Path dir = storeWithSettings(tmp.resolve("a"), 1);
    downgradeToV1(dir);
    // the first step of a migration, as a crash right after it would leave it
    StoreMeta.read(dir.resolve(StoreFiles.META)).migrated(true).write(dir.resolve(StoreFiles.META));
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.settings("team-a")).contains(MEMRL);
    }
    assertThat(StoreMeta.read(dir.resolve(StoreFiles.META)).legacySettings()).isFalse();
    assertThat(Files.readString(dir.resolve(SettingsFile.NAME))).startsWith("MLST 2 ");
  }

  private static void assertRefused(Path dir, String... messageParts) throws IOException {
    Map<String, String> before = fingerprint(dir);
    assertThatThrownBy(() -> LuceneStore.open(dir, DIM))
        .isInstanceOfSatisfying(MemLoopException.class,
            e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.STORE_CORRUPT))
        .hasMessageContainingAll(messageParts);
    assertThat(fingerprint(dir)).as("files after the refused open").isEqualTo(before);
  }

  /**
   * Rewrites the metadata and the settings file of {@code dir} in the formats of builds before the
   * binding: metadata v1 (no id, no flags), settings v1 ({@code MLST 1 <crc of the body>}).
   */
  private static void downgradeToV1(Path dir) throws IOException {
    StoreMeta meta = StoreMeta.read(dir.resolve(StoreFiles.META));
    ByteWriter w = new ByteWriter(128);
    w.putInt(StoreMeta.MAGIC).putInt(1).putInt(meta.dimension()).putInstant(meta.createdAt()).putString(meta.createdBy());
    CRC32C crc = new CRC32C();
    crc.update(w.array(), 0, w.length());
    w.putInt((int) crc.getValue());
    Files.write(dir.resolve(StoreFiles.META), w.toByteArray());
    Path settings = dir.resolve(SettingsFile.NAME);
    if (Files.exists(settings)) {
      String text = Files.readString(settings);
      String body = text.substring(text.indexOf('\n') + 1);
      CRC32C c = new CRC32C();
      c.update(body.getBytes(StandardCharsets.UTF_8));
      Files.writeString(settings, "MLST 1 " + String.format("%08x", (int) c.getValue()) + "\n" + body);
    }
  }
}
