package io.memloop.cli;

import io.memloop.cli.CliRun.Result;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.store.lucene.LuceneStore;
import io.memloop.store.lucene.LuceneStoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memloop migrate} between two embedded stores (the Solr store's side is the same SPI, tested in its module). */
class MigrateCliTest {
  @TempDir Path dir;

  private static Result run(String... args) {
    return CliRun.run(args);
  }

  private String store(String name) {
    return dir.resolve(name).toString();
  }

  private void cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--store", store("from"), "--embedder", "none"));
    Result r = run(all.toArray(String[]::new));
    assertThat(r.code()).as(r.err()).isZero();
  }

  private List<Memory> memories(String store, String ns) {
    List<Memory> out = new ArrayList<>();
    try (LuceneStore s = LuceneStore.open(Path.of(store), LuceneStoreOptions.builder().build())) {
      s.forEachMemory(ns, out::add);
    }
    return out;
  }

  private static Map<String, List<Double>> ledger(String store, String ns) {
    try (LuceneStore s = LuceneStore.open(Path.of(store), LuceneStoreOptions.builder().build())) {
      Map<String, List<Double>> out = new HashMap<>();
      s.ledger(ns, s.ledgerKeys(ns)).forEach((k, v) -> out.put(k, java.util.Arrays.stream(v).boxed().toList()));
      return out;
    }
  }

  @Test
  void copiesNamespacesExactly_intoANewStore_andRefusesToCopyTwice() {
    cli("remember", "-n", "team", "--intent", "restart the web tier", "--embedding", "[1,0,0,0]", "--experience", "drain first", "--outcome", "success");
    cli("remember", "-n", "team", "--intent", "restart the web tier", "--embedding", "[0.99,0.01,0,0]", "--experience", "it timed out", "--outcome", "failure");
    cli("remember", "-n", "ops", "--intent", "rotate keys", "--embedding", "[0,1,0,0]", "--experience", "use the vault", "--outcome", "success");
    Result retrieved = run("retrieve", "-n", "team", "--embedding", "[1,0,0,0]", "--json", "--store", store("from"), "--embedder", "none");
    String retrievalId = retrieved.out().replaceAll("(?s).*\"retrievalId\"\\s*:\\s*\"(r[0-9]+)\".*", "$1");
    cli("reward", "-n", "team", "--retrieval", retrievalId, "--reward", "1");

    Result copied = run("migrate", "--from", store("from"), "--to", store("to"), "--all");
    assertThat(copied.code()).as(copied.err()).isZero();
    assertThat(copied.out())
        .contains("copied namespace team: 2 memories in 1 intent groups, 5 per-task learning entries, and its configuration")
        .contains("copied namespace ops: 1 memories in 1 intent groups");

    for (String ns : List.of("team", "ops")) {
      List<Memory> a = memories(store("from"), ns);
      List<Memory> b = memories(store("to"), ns);
      assertThat(b).hasSize(a.size());
      for (int i = 0; i < a.size(); i++) {
        assertThat(b.get(i)).usingRecursiveComparison().ignoringFields("id", "intentId").isEqualTo(a.get(i));
      }
    }
    assertThat(memories(store("to"), "team")).extracting(Memory::visits).contains(1L);
    // what the reward taught, under the copies' ids
    Map<String, String> ids = new HashMap<>();
    List<Memory> a = memories(store("from"), "team");
    List<Memory> b = memories(store("to"), "team");
    for (int i = 0; i < a.size(); i++) {
      ids.put(a.get(i).id(), b.get(i).id());
    }
    Map<String, List<Double>> source = ledger(store("from"), "team");
    Map<String, List<Double>> expected = new HashMap<>();
    source.forEach((key, value) -> {
      String memory = io.memloop.LedgerKeys.memory(key);
      expected.put(memory == null ? key : io.memloop.LedgerKeys.renamed(key, ids.get(memory)), value);
    });
    assertThat(source).hasSize(5);
    assertThat(ledger(store("to"), "team")).isEqualTo(expected);

    Result again = run("migrate", "--from", store("from"), "--to", store("to"), "-n", "team");
    assertThat(again.code()).isNotZero();
    assertThat(again.err()).startsWith("memloop: --to: namespace team already holds memories").doesNotContain("\tat ");
  }

  @Test
  void badArguments_areOneReadableLine() {
    cli("remember", "-n", "team", "--intent", "x", "--embedding", "[1,0]", "--experience", "e", "--outcome", "success");
    for (var c : List.of(
        List.of(List.of("migrate", "--from", store("from"), "--to", store("to")), "--namespace: name the namespaces"),
        List.of(List.of("migrate", "--from", store("from"), "--to", store("to"), "--all", "-n", "team"), "not both"),
        List.of(List.of("migrate", "--from", store("from"), "--to", store("from"), "--all"), "--to: is the same store as --from"),
        List.of(List.of("migrate", "--from", store("missing"), "--to", store("to"), "--all"), "--from: no MemLoop store at"),
        List.of(List.of("migrate", "--from", store("from"), "--to", "solr://zk/c", "--all"), "--to: host 'zk' is not HOST:PORT"),
        List.of(List.of("migrate", "--from", store("from"), "--to", store("to"), "-n", "../etc"), "namespace"))) {
      @SuppressWarnings("unchecked")
      List<String> args = (List<String>) c.get(0);
      Result r = run(args.toArray(String[]::new));
      assertThat(r.code()).as(String.join(" ", args)).isNotZero();
      assertThat(r.err().lines()).as(r.err()).hasSize(1);
      assertThat(r.err()).startsWith("memloop: ").contains((String) c.get(1)).doesNotContain("\tat ");
    }
    assertThat(Path.of(store("to"))).doesNotExist();
  }
}
