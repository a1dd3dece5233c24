package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoop;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.server.ApiKeys;
import io.memloop.server.IdCodec;
import io.memloop.server.MemLoopServer;
import io.memloop.server.ServerOptions;
import io.memloop.store.lucene.LuceneStore;
import io.memloop.cli.CliRun.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data commands with {@code --url}: against a real {@code memloop serve} on a loopback port, they print what the
 * same commands print on a store of their own (ids aside), and the server's errors as the CLI's one line.
 */
class RemoteCliTest {
  @TempDir Path dir;
  MemLoop loop;
  MemLoopServer server;
  Path serverStore;
  Path keyFile;
  Path otherKeyFile;
  String url;

  @BeforeEach
  void start() throws IOException {
    serverStore = dir.resolve("served");
    loop = MemLoop.builder().store(LuceneStore.open(serverStore, HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).build();
    String key = ApiKeys.newKey();
    String other = ApiKeys.newKey();
    ApiKeys keys = ApiKeys.empty().with("cli", Set.of("default", "ops"), key).with("other", Set.of("elsewhere"), other);
    server = MemLoopServer.start(loop, keys, ServerOptions.defaults().withPort(0).withStoreDirectory(serverStore)
        .withIds(IdCodec.random()));
    url = server.uri().toString();
    keyFile = Files.writeString(dir.resolve("key"), key + "\n");
    otherKeyFile = Files.writeString(dir.resolve("other-key"), other);
  }

  @AfterEach
  void stop() {
    try {
      server.close();
    } finally {
      loop.close();
    }
  }

  private Result local(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--store", dir.resolve("local").toString(), "--embedder", "hashing"));
    return CliRun.run(a);
  }

  private Result remote(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--url", url, "--key-file", keyFile.toString()));
    return CliRun.run(a);
  }

  /** One episode, run on a store and through the server; every step's output with ids named in order of appearance. */
  private List<String> episode(java.util.function.Function<String[], Result> cli) {
    List<String> shown = new ArrayList<>();
    Map<String, String> ids = new LinkedHashMap<>();
    Result m = cli.apply(new String[] {"remember", "--intent", "restart billing in staging", "--experience",
        "kubectl rollout restart deploy/billing", "--outcome", "success", "--id-only"});
    assertThat(m.code()).as(m.err()).isZero();
    String memory = m.out().strip();
    shown.add(normalise(m.out(), ids));
    shown.add(normalise(cli.apply(new String[] {"remember", "--intent", "rotate the api key", "--experience",
        "edited the wrong vault", "--outcome", "failure"}).out(), ids));
    Result merged = cli.apply(new String[] {"remember", "--intent", "rotate the api key", "--experience",
        "step one\nstep two", "--outcome", "failure", "--json"});
    shown.add(normalise(withoutTimes(merged.json()).toString(), ids));
    Result r = cli.apply(new String[] {"retrieve", "--intent", "restart billing in the staging cluster"});
    assertThat(r.code()).as(r.err()).isZero();
    shown.add(normalise(r.out(), ids));
    Result json = cli.apply(new String[] {"retrieve", "--intent", "rotate the api key", "--json"});
    shown.add(normalise(withoutTimes(json.json()).toString(), ids));
    String retrieval = json.json().get("retrievalId").asText();
    shown.add(normalise(cli.apply(new String[] {"reward", "--retrieval", retrieval, "--reward", "-1"}).out(), ids));
    String next = cli.apply(new String[] {"retrieve", "--intent", "restart billing in staging", "--id-only"}).out().strip();
    String first = cli.apply(new String[] {"retrieve", "--intent", "rotate the api key", "--id-only"}).out().strip();
    shown.add(normalise(cli.apply(new String[] {"reward", "--retrieval", next, "--reward", "1", "--used", memory, "--json"}).out(), ids));
    shown.add(normalise(cli.apply(new String[] {"reward", "--retrieval", first, "--reward", "0", "--next", next}).out(), ids));
    Result stats = cli.apply(new String[] {"stats"});
    assertThat(stats.code()).as(stats.err()).isZero();
    shown.add(normalise(stats.out().substring(stats.out().indexOf('\n') + 1), ids)); // the first line names the store
    JsonNode statsJson = cli.apply(new String[] {"stats", "--json"}).json();
    shown.add(normalise(statsJson.get("namespaces").toString() + statsJson.get("config"), ids));
    Result edited = cli.apply(new String[] {"edit", "--memory", memory, "--experience", "kubectl -n staging rollout restart deploy/billing"});
    assertThat(edited.code()).as(edited.err()).isZero();
    shown.add(normalise(edited.out(), ids));
    Result found = cli.apply(new String[] {"search", "--text", "STAGING Rollout", "--json"});
    assertThat(found.code()).as(found.err()).isZero();
    assertThat(found.json().get("total").asLong()).isEqualTo(1);
    shown.add(normalise(withoutTimes(found.json()).toString(), ids));
    Result first2 = cli.apply(new String[] {"list", "--sort", "q", "--desc", "--limit", "1"});
    assertThat(first2.code()).as(first2.err()).isZero();
    shown.add(normalise(first2.out().replaceAll("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z", "<time>").replaceAll("--after \\S+", "--after <cursor>"), ids));
    String cursor = first2.out().lines().filter(l -> l.startsWith("next page: --after ")).findFirst().orElseThrow()
        .substring("next page: --after ".length());
    Result rest = cli.apply(new String[] {"list", "--sort", "q", "--desc", "--limit", "1", "--after", cursor, "--json"});
    assertThat(rest.code()).as(rest.err()).isZero();
    assertThat(rest.json().get("memories")).hasSize(1);
    shown.add(normalise(withoutTimes(rest.json()).toString(), ids));
    Result badFilter = cli.apply(new String[] {"list", "--min-q", "1", "--max-q", "0"});
    assertThat(badFilter.code()).isEqualTo(2);
    shown.add(badFilter.err());
    shown.add(normalise(cli.apply(new String[] {"forget", "--memory", memory}).out(), ids));
    shown.add(normalise(cli.apply(new String[] {"forget", "--memory", memory, "--json"}).err(), ids));
    return shown;
  }

  private static final Pattern ID = Pattern.compile("\\b[mri]_?[A-Za-z0-9_-]+");

  /** {@code s} with each id (m12, m_3kq7...) replaced by its kind and order of first appearance. */
  private static String normalise(String s, Map<String, String> ids) {
    Matcher m = ID.matcher(s);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String id = m.group();
      boolean isId = id.matches("[mri]\\d+") || id.matches("[mri]_[A-Za-z0-9_-]{10,}");
      m.appendReplacement(out, Matcher.quoteReplacement(isId
          ? ids.computeIfAbsent(id, k -> "<" + k.charAt(0) + ids.size() + ">") : id));
    }
    m.appendTail(out);
    return out.toString().replaceAll(" {2,}", " "); // a column of ids is as wide as the ids
  }

  private static JsonNode withoutTimes(JsonNode node) {
    JsonNode copy = node.deepCopy();
    strip(copy);
    return copy;
  }

  private static void strip(JsonNode node) {
    if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
      o.remove(List.of("createdAt", "updatedAt"));
    }
    for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
      strip(it.next());
    }
  }

  @Test
  void everyDataCommandThroughTheServer_printsWhatItPrintsOnAStore() {
    List<String> onStore = episode(this::local);
    List<String> throughServer = episode(this::remote);
    assertThat(throughServer).isEqualTo(onStore);
    assertThat(String.join("\n", throughServer)).contains("\"parts\":[\"step one\\nstep two\",\"edited the wrong vault\"]");
    assertThat(loop.stats("default").memories()).as("the server's store got the memories").isEqualTo(1);
  }

  @Test
  void theServersIdsAreOpaque_andStatsNamesTheServer() {
    Result m = remote("remember", "--intent", "restart nginx", "--experience", "systemctl restart nginx", "--outcome", "success");
    assertThat(m.out()).matches("remembered m_[A-Za-z0-9_-]+ \\(intent group i_[A-Za-z0-9_-]+, q=0\\.000\\)\\R");
    assertThat(remote("stats").out()).startsWith("store " + url.replaceAll("/$", "") + " (384-d), embedding model hashing-v1-384\n");
    Result all = remote("stats", "--all", "--json");
    assertThat(all.json().get("namespaces")).hasSize(1);
    assertThat(all.json().get("store").asText()).isEqualTo(url.replaceAll("/$", ""));
  }

  @Test
  void theServerAndKeyMayComeFromTheEnvironment() throws IOException {
    Map<String, String> saved = RemoteOptions.environment;
    RemoteOptions.environment = Map.of(RemoteOptions.URL_ENV, url, RemoteOptions.KEY_ENV, Files.readString(keyFile).strip());
    try {
      Result r = CliRun.run("remember", "--intent", "restart nginx", "--experience", "systemctl restart nginx", "--id-only");
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.out()).startsWith("m_");
      assertThat(loop.stats("default").memories()).isEqualTo(1);
      assertThat(Files.exists(Path.of("memloop-data"))).as("no local store was made").isFalse();
    } finally {
      RemoteOptions.environment = saved;
    }
  }

  @Test
  void serverErrors_becomeOneLineAndTheExitCodeOfTheirKind() {
    Result unknown = remote("reward", "--retrieval", "r_doesNotExist0000000000", "--reward", "1");
    assertThat(unknown.code()).isEqualTo(MemLoopCli.NOT_FOUND);
    assertThat(unknown.err()).startsWith("memloop: --retrieval: ").doesNotContain("Exception").hasLineCount(1);

    Result outOfRange = remote("remember", "--intent", "x", "--experience", "y", "--outcome", "success", "-n", "elsewhere");
    assertThat(outOfRange.code()).isEqualTo(MemLoopCli.NOT_FOUND);
    assertThat(outOfRange.err()).startsWith("memloop: --namespace: no namespace 'elsewhere'").hasLineCount(1);

    Result noKey = CliRun.run("stats", "--url", url);
    assertThat(noKey.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(noKey.err()).startsWith("memloop: authorization: missing").contains("MEMLOOP_API_KEY", "--key-file").hasLineCount(1);

    Result wrongKey = CliRun.run("stats", "--url", url, "--key-file", dir.resolve("missing").toString());
    assertThat(wrongKey.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(wrongKey.err()).startsWith("memloop: --key-file: cannot read ");

    Result localOption = remote("stats", "--store", dir.resolve("x").toString());
    assertThat(localOption.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(localOption.err()).startsWith("memloop: --store: cannot be used with --url");

    Result badUrl = CliRun.run("stats", "--url", "ftp://example.org");
    assertThat(badUrl.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(badUrl.err()).startsWith("memloop: --url: expected http://HOST:PORT");

    assertThat(loop.store().namespaces()).as("nothing was written").isEmpty();
  }

  @Test
  void aServerThatIsGone_isExitFiveNamingTheUrl() {
    String gone = url;
    server.close();
    Result r = CliRun.run("stats", "--url", gone, "--key-file", keyFile.toString());
    assertThat(r.code()).isEqualTo(MemLoopCli.STORE);
    assertThat(r.err()).startsWith("memloop: --url: cannot reach the server at " + gone.replaceAll("/$", "")).hasLineCount(1);
  }

  @Test
  void aStoreHeldByTheServer_saysToUseUrl() {
    Result r = CliRun.run("stats", "--store", serverStore.toString(), "--lock-timeout", "0");
    assertThat(r.code()).isEqualTo(MemLoopCli.STORE);
    assertThat(r.err()).contains("in use by another process").contains("--url http://HOST:PORT").contains("MEMLOOP_URL")
        .hasLineCount(1);
  }
}
