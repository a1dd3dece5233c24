package io.memloop.cli;

import io.memloop.cli.CliRun.Result;

import io.memloop.server.Json;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.store.lucene.LuceneStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded hostile input: each case is a valid invocation (remember, retrieve, reward, forget, stats,
 * replay --persist) with one poison that makes it invalid (a bad number, embedding, namespace, knob,
 * id, option, file or replay line) and random noise that is valid on its own (control characters,
 * ANSI escapes, {@code @}-texts, long texts). Every case must end with exit code 2–6 and exactly one
 * line on stderr with no stack trace, and leave the store's logical content and the working
 * directory's entries as they were. A failure names the case's seed; rerun one case with
 * {@code -Dhostile.seed=N}.
 */
class HostileInputTest {
  static final int CASES = 600;

  @TempDir Path work;
  Path store;
  String contentBefore;
  String retrieval;
  String memory;

  static Result run(List<String> args) {
    return CliRun.run(args);
  }

  @BeforeEach
  void storeWithContent() throws IOException {
    store = work.resolve("store");
    List<String> common = List.of("--store", store.toString(), "--embedder", "none");
    for (String[] m : new String[][] {{"[1,0,0,0]", "success", "use sorted()"}, {"[0,1,0,0]", "failure", "tried bubble sort"},
        {"[0.9,0.1,0,0]", "success", "sorted(key=...)"}}) {
      Result r = run(concat(List.of("remember", "--embedding", m[0], "--outcome", m[1], "--experience", m[2]), common));
      assertThat(r.code()).as(r.err()).isZero();
    }
    Result rewarded = run(concat(List.of("retrieve", "--embedding", "[1,0,0,0]", "--json"), common));
    String id = Json.MAPPER.readTree(rewarded.out()).get("retrievalId").asText();
    assertThat(run(concat(List.of("reward", "--retrieval", id, "--reward", "1"), common)).code()).isZero();
    Result pending = run(concat(List.of("retrieve", "--embedding", "[0,1,0,0]", "--json"), common));
    retrieval = Json.MAPPER.readTree(pending.out()).get("retrievalId").asText();
    memory = Json.MAPPER.readTree(pending.out()).get("selected").get(0).get("id").asText();
    Files.writeString(work.resolve("note.txt"), "--namespace\nevil\n");
    writeEpisodes(new Random(0), "valid");
    contentBefore = content();
  }

  /** Memories (ids, texts, vectors, Q, visits) and counts of every namespace, read from the store itself. */
  String content() {
    StringBuilder b = new StringBuilder();
    try (LuceneStore s = LuceneStore.open(store)) {
      for (String ns : new TreeSet<>(s.namespaces())) {
        b.append(ns).append(' ').append(s.counts(ns, java.time.Instant.EPOCH)).append('\n');
        s.forEachMemory(ns, m -> b.append(line(m)).append('\n'));
      }
    }
    return b.toString();
  }

  private static String line(Memory m) {
    return m.id() + " " + m.intentId() + " " + m.q() + " " + m.visits() + " " + m.outcome() + " "
        + java.util.Arrays.toString(m.intentEmbedding()) + " " + m.experience();
  }

  private TreeSet<String> entries() throws IOException {
    try (Stream<Path> s = Files.list(work)) {
      return s.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  void everyHostileCase_isRejectedInOneLine_andChangesNothing() throws IOException {
    String only = System.getProperty("hostile.seed");
    List<Long> seeds = new ArrayList<>();
    if (only != null) {
      seeds.add(Long.parseLong(only));
    } else {
      for (long s = 0; s < CASES; s++) {
        seeds.add(s);
      }
    }
    TreeSet<String> entriesBefore = entries();
    List<String> failures = new ArrayList<>();
    for (long seed : seeds) {
      Case c = generate(seed);
      Result r = run(c.args());
      List<String> problems = new ArrayList<>();
      if (r.code() < 2 || r.code() > 6) {
        problems.add("exit " + r.code());
      }
      if (r.err().lines().count() != 1 || !r.err().startsWith("memloop: ")) {
        problems.add("stderr is not one 'memloop: ' line");
      }
      if (r.err().contains("Exception") || r.err().contains("\tat ")) {
        problems.add("stack trace");
      }
      if (!entries().equals(entriesBefore)) {
        problems.add("working directory changed: " + entries());
      }
      if (!problems.isEmpty() || !content().equals(contentBefore)) {
        if (!content().equals(contentBefore)) {
          problems.add("store content changed");
        }
        failures.add("seed " + seed + " (" + c.poison() + "): " + problems + "\n  args " + c.args() + "\n  stderr "
            + r.err().strip());
        if (failures.size() >= 10) {
          break;
        }
      }
    }
    assertThat(failures).as("hostile cases that got through").isEmpty();
    assertThat(seeds.size()).isGreaterThanOrEqualTo(only == null ? 500 : 1);
  }

  private Result runOnStore(String... args) {
    return run(concat(List.of(args), List.of("--store", store.toString(), "--embedder", "none")));
  }

  private static void assertRejected(Result r, int code, String... contains) {
    assertThat(r.code()).as(r.err()).isEqualTo(code);
    assertThat(r.err().lines()).as(r.err()).hasSize(1);
    assertThat(r.err()).startsWith("memloop: ").doesNotContain("\tat ");
    for (String c : contains) {
      assertThat(r.err()).contains(c);
    }
  }

  @Test
  void rejectedRemember_onANewStore_leavesNoStoreBehind() {
    Path fresh = work.resolve("new-store");
    Result r = run(List.of("remember", "--store", fresh.toString(), "--embedder", "none", "--dimension", "8",
        "--embedding", "[1,0,0,0]", "--experience", "x"));
    assertRejected(r, MemLoopCli.USAGE, "--embedding: has 4 dimensions but the new store (--dimension 8) holds 8-d vectors");
    assertThat(fresh).doesNotExist();

    Result textOnly = run(List.of("remember", "--store", fresh.toString(), "--embedder", "none", "--dimension", "8",
        "--intent", "needs a model", "--experience", "x"));
    assertRejected(textOnly, MemLoopCli.USAGE, "--intent: cannot be embedded: the new store (--dimension 8) holds 8-d vectors");
    assertThat(fresh).doesNotExist();

    // A model that fails (nothing listens on loopback port 1) fails before the store is made.
    Result modelDown = run(List.of("remember", "--store", fresh.toString(), "--embedder", "openai", "--openai-base-url",
        "http://127.0.0.1:1", "--openai-model", "m", "--openai-dimension", "4", "--intent", "restart nginx", "--experience", "x"));
    assertRejected(modelDown, MemLoopCli.MODEL);
    assertThat(fresh).doesNotExist();

    Result unknownRetrieval = run(List.of("remember", "--store", fresh.toString(), "--embedder", "none",
        "--embedding", "[1,0,0,0]", "--experience", "x", "--retrieval", "r1"));
    assertThat(unknownRetrieval.code()).as(unknownRetrieval.err()).isEqualTo(MemLoopCli.NOT_FOUND);
    assertThat(fresh).doesNotExist();
  }

  @Test
  void dimensionOtherThanTheStores_isRefused_notIgnored() {
    for (List<String> command : List.of(
        List.of("remember", "--embedding", "[1,0,0,0]", "--experience", "x"),
        List.of("retrieve", "--embedding", "[1,0,0,0]"),
        List.of("stats"))) {
      List<String> args = new ArrayList<>(command);
      args.addAll(List.of("--dimension", "8"));
      assertRejected(runOnStore(args.toArray(String[]::new)), MemLoopCli.USAGE, "--dimension: is 8", "holds 4-d vectors");
    }
    assertThat(content()).isEqualTo(contentBefore);
    assertThat(runOnStore("stats", "--dimension", "4").code()).isZero(); // the store's own dimension is fine
  }

  @Test
  void replayPersist_withAnotherDimension_isRefused() {
    Result r = runOnStore("replay", "--persist", "--dimension", "8", "--input", work.resolve("episodes.jsonl").toString());
    assertRejected(r, MemLoopCli.USAGE, "--dimension: is 8", "holds 4-d vectors");
    assertThat(content()).isEqualTo(contentBefore);
  }

  @Test
  void rememberWithABadRetrieval_isRefused_likeRewardingIt() throws IOException {
    assertRejected(runOnStore("remember", "--embedding", "[1,0,0,0]", "--experience", "x", "--retrieval", "junk id!"),
        MemLoopCli.USAGE, "--retrieval", "junk id!");
    assertRejected(runOnStore("remember", "--embedding", "[1,0,0,0]", "--experience", "x", "--retrieval", "r999999"),
        MemLoopCli.NOT_FOUND, "--retrieval: no retrieval 'r999999' in namespace 'default'");
    // A retrieval of another namespace is not one of this namespace's.
    assertRejected(runOnStore("remember", "-n", "other", "--embedding", "[1,0,0,0]", "--experience", "x", "--retrieval", retrieval),
        MemLoopCli.NOT_FOUND, "no retrieval '" + retrieval + "' in namespace 'other'");
    assertRejected(runOnStore("reward", "-n", "other", "--retrieval", retrieval, "--reward", "1"),
        MemLoopCli.NOT_FOUND, "no retrieval '" + retrieval + "' in namespace 'other'");
    assertThat(content()).isEqualTo(contentBefore);
    // The episode's own retrieval is accepted.
    Result ok = runOnStore("remember", "--embedding", "[0,0,1,0]", "--experience", "x", "--retrieval", retrieval);
    assertThat(ok.code()).as(ok.err()).isZero();
  }

  @Test
  void usedWithAnEmptyElement_isRefused_andEmptyUsedMeansNone() throws IOException {
    for (String used : List.of(memory + ",," + memory, memory + ",", "," + memory)) {
      assertRejected(runOnStore("reward", "--retrieval", retrieval, "--reward", "1", "--used", used),
          MemLoopCli.USAGE, "--used: has an empty id");
    }
    assertThat(content()).isEqualTo(contentBefore);
    Result none = runOnStore("reward", "--retrieval", retrieval, "--reward", "1", "--used=", "--json");
    assertThat(none.code()).as(none.err()).isZero();
  }

  @Test
  void textsThatStartLikeAnOption_areStored_asGiven() throws IOException {
    Result attached = runOnStore("remember", "--embedding", "[0,0,0,1]", "--experience=-n kube-system was missing",
        "--intent=-x", "--json");
    assertThat(attached.code()).as(attached.err()).isZero();
    assertThat(attached.json().get("experience").asText()).isEqualTo("-n kube-system was missing");
    assertThat(attached.json().get("intent").asText()).isEqualTo("-x");

    Result separate = runOnStore("remember", "--embedding", "[0,0,0.5,1]", "--experience", "-n kube-system was missing",
        "--intent", "--json text", "--json");
    assertThat(separate.code()).as(separate.err()).isZero();
    assertThat(separate.json().get("experience").asText()).isEqualTo("-n kube-system was missing");
    assertThat(separate.json().get("intent").asText()).isEqualTo("--json text");

    // A value that is exactly an option name attached with '=' is the value ...
    Result literal = runOnStore("remember", "--embedding", "[0,0,1,1]", "--experience=--json", "--json");
    assertThat(literal.code()).as(literal.err()).isZero();
    assertThat(literal.json().get("experience").asText()).isEqualTo("--json");
  }

  @Test
  void anOptionWhereAValueBelongs_isAForgottenValue() {
    String before = content();
    assertRejected(runOnStore("remember", "--embedding", "[0,0,0,1]", "--experience", "--json"),
        MemLoopCli.USAGE, "--experience: expected a value but found the option '--json'", "--experience=--json");
    assertRejected(runOnStore("remember", "--embedding", "[0,0,0,1]", "--intent", "-n", "other", "--experience", "x"),
        MemLoopCli.USAGE, "--intent: expected a value but found the option '-n'");
    assertRejected(runOnStore("remember", "--embedding", "[0,0,0,1]", "--experience", "--namespace=evil"),
        MemLoopCli.USAGE, "found the option '--namespace=evil'");
    assertThat(content()).isEqualTo(before);
  }

  record Case(String poison, List<String> args) {}

  /** The valid invocations poisons are applied to. */
  private List<List<String>> bases(Random rnd) {
    String text = noise(rnd);
    return List.of(
        List.of("remember", "--embedding", "[0.5, 0.5, 0, 0]", "--experience", text, "--outcome", "success"),
        List.of("retrieve", "--embedding", "[1,0,0,0]", "--json"),
        List.of("reward", "--retrieval", retrieval, "--reward", "1"),
        List.of("forget", "--memory", memory),
        List.of("stats", "--all"),
        List.of("replay", "--persist", "--input", work.resolve("episodes.jsonl").toString()));
  }

  /** Valid but unfriendly text: control characters, ANSI escapes, '@' and '--' prefixes, length. */
  private String noise(Random rnd) {
    String[] pool = {"plain experience", "\u001b[31mred\u001b[0m and \u001b[2J cleared", "line one\nline two\r\n", "@note.txt",
        "@/etc/passwd", "--namespace evil", "tab\there", "\u0000nul", "emoji \uD83D\uDE80 and RTL \u202Eevil", "x".repeat(5000),
        "$(rm -rf /)", "'; DROP TABLE memories; --"};
    return pool[rnd.nextInt(pool.length)];
  }

  private Case generate(long seed) throws IOException {
    Random rnd = new Random(seed);
    List<List<String>> bases = bases(rnd);
    int which = rnd.nextInt(bases.size());
    List<String> args = new ArrayList<>(bases.get(which));
    String command = args.get(0);
    List<Function<List<String>, String>> poisons = new ArrayList<>(common(rnd));
    switch (command) {
      case "remember", "retrieve" -> poisons.addAll(embeddingPoisons(rnd));
      case "reward" -> poisons.addAll(rewardPoisons(rnd));
      case "forget" -> poisons.add(a -> replace(a, "--memory", pick(rnd, "", " ", "m1\n", "../../etc/passwd", "m" + "9".repeat(30), "\u001b[2J")));
      case "replay" -> poisons.addAll(replayPoisons(rnd));
      default -> {}
    }
    if (command.equals("remember")) {
      poisons.add(a -> replace(a, "--outcome", pick(rnd, "meh", "", "SUCCESS\n", "succ ess")));
      poisons.add(a -> replace(a, "--experience", pick(rnd, "", " ", "\n\t ")));
    }
    String poison = poisons.get(rnd.nextInt(poisons.size())).apply(args);
    if (!args.contains("--store")) {
      args.addAll(List.of("--store", store.toString()));
    }
    if (!args.contains("--embedder")) {
      args.addAll(List.of("--embedder", "none"));
    }
    if (command.equals("replay")) {
      writeEpisodes(rnd, poison);
    }
    return new Case(poison, args);
  }

  private List<Function<List<String>, String>> common(Random rnd) {
    return List.of(
        a -> add(a, "--set", pick(rnd, "k1=0", "k1=1.5", "k2=100000", "alpha=2", "alpha=1d", "simStd=4.9e-324",
            "simMean=NaN", "retrievalTtl=9223372036854775807", "retrievalTtl=PT99999999999999999H", "nope=1", "k1", "=1", "epsilon=2",
            "lambda=NaN", "lambda= 0.5", "qMin=Infinity")),
        a -> add(a, "--preset", pick(rnd, "magic", "", "MEMRL2", "memrl\n")),
        a -> add(a, "--namespace", pick(rnd, "", "a b", "a\nb", "x".repeat(200), "\u001b[31m", "-", "ns/..")),
        a -> add(a, pick(rnd, "--bogus", "-x", "--Store", "@note.txt"), null),
        a -> add(a, "--embedder", pick(rnd, "gpt", "", "openai")),
        a -> add(a, "--dimension", pick(rnd, "0", "-1", "abc", "99999999", "4.0")),
        a -> add(a, "--lock-timeout", pick(rnd, "-1", "abc", "1e9", "NaN", "")),
        a -> add(a, "--vector-format", pick(rnd, "", "int3", "FLOAT", "bbq", "int 8", "../int8")),
        a -> {
          a.add("--store");
          a.add(work.resolve("note.txt").toString()); // a file, not a directory
          return "store is a file";
        });
  }

  private List<Function<List<String>, String>> embeddingPoisons(Random rnd) {
    Path dir = work;
    return List.of(a -> replace(a, "--embedding", pick(rnd, "", "[]", "[1,0,0]", "[\"1\",\"0\",\"0\",\"0\"]",
            "[1,0,0,NaN]", "[1e39,0,0,0]", "[0,0,0,0]", "@/dev/zero", "@/dev/urandom", "@" + dir, "@" + dir.resolve("missing.json"),
            "[1,0,0,0", "{\"a\":1}", "@", "@note.txt", "[1,0,0,0] [1]", "[true,0,0,0]", "[1,0,0,0,0]")));
  }

  private List<Function<List<String>, String>> rewardPoisons(Random rnd) {
    return List.of(
        a -> replace(a, "--reward", pick(rnd, "1d", "0x1p0", " 1", "1 ", "NaN", "Infinity", "2", "-1.5", "",
            "1e400", "\u0661", "1,0", "+-1")),
        a -> replace(a, "--retrieval", pick(rnd, "r999999", "", "r1\n", "../../etc", "\u001b[2J")));
  }

  private List<Function<List<String>, String>> replayPoisons(Random rnd) {
    List<Function<List<String>, String>> out = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      int kind = i;
      out.add(a -> "replay line " + kind);
    }
    out.add(a -> {
      a.add("--output");
      a.add(work.resolve("episodes.jsonl").toString());
      return "replay output = input";
    });
    return out;
  }

  /** Two valid episodes, then (for a "replay line K" poison) a bad one, then a valid one. */
  private void writeEpisodes(Random rnd, String poison) throws IOException {
    List<byte[]> lines = new ArrayList<>();
    lines.add(utf8("{\"embedding\": [1, 0, 0, 0], \"success\": true, \"experience\": \"" + "ok" + "\"}"));
    lines.add(utf8("{\"embedding\": [0, 1, 0, 0], \"reward\": -1, \"experience\": \"\\u001b[31mred\"}"));
    if (poison != null && poison.startsWith("replay line")) {
      int kind = Integer.parseInt(poison.substring("replay line ".length()));
      lines.add(switch (kind) {
        case 0 -> new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'}; // invalid UTF-8
        case 1 -> utf8("{\"embedding\": [1,0,0,0], \"success\": true, \"success\": false, \"experience\": \"dup\"}");
        case 2 -> utf8("{\"embedding\": [1,0,0,0], \"success\": true, \"reward\": 1, \"experience\": \"both\"}");
        case 3 -> utf8("{\"embedding\": [1,0,0,0], \"sucess\": true, \"experience\": \"typo\"}");
        case 4 -> utf8("{\"embedding\": [1,0,0,0], \"reward\": 3, \"experience\": \"out of range\"}");
        case 5 -> utf8("{\"embedding\": [1,0,0], \"success\": true, \"experience\": \"3-d\"}");
        case 6 -> utf8("[1, 2, 3]");
        case 7 -> utf8("{\"embedding\": [1,0,0,0], \"success\": true, \"experience\": \"trunc");
        case 8 -> utf8("{\"embedding\": [\"1\",\"0\",\"0\",\"0\"], \"success\": true, \"experience\": \"strings\"}");
        case 9 -> utf8("{\"embedding\": [1,0,0,0], \"success\": true, \"namespace\": \"a b\", \"experience\": \"ns\"}");
        case 10 -> utf8("{\"embedding\": [1,0,0,0], \"success\": true, \"experience\": \"\"}");
        case 11 -> utf8("{\"intent\": \"needs a model\", \"success\": true, \"experience\": \"no model\"}");
        case 12 -> utf8("{\"embedding\": [1,0,0,0], \"reward\": 1e999, \"experience\": \"inf\"}");
        default -> utf8("{\"embedding\": [0,0,0,0], \"success\": true, \"experience\": \"zero\"}");
      });
    }
    lines.add(utf8("{\"embedding\": [0.5, 0.5, 0, 0], \"success\": true, \"experience\": \"after\"}"));
    try (var out = Files.newOutputStream(work.resolve("episodes.jsonl"))) {
      if (rnd.nextBoolean()) {
        out.write(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}); // a byte-order mark is fine
      }
      for (byte[] l : lines) {
        out.write(l);
        out.write('\n');
      }
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String pick(Random rnd, String... values) {
    return values[rnd.nextInt(values.length)];
  }

  private static String replace(List<String> args, String option, String value) {
    args.set(args.indexOf(option) + 1, value);
    return option + "=" + Text.printable(value.length() > 40 ? value.substring(0, 40) + "..." : value);
  }

  private static String add(List<String> args, String option, String value) {
    args.add(option);
    if (value != null) {
      args.add(value);
    }
    return option + (value == null ? "" : "=" + Text.printable(value.length() > 40 ? value.substring(0, 40) + "..." : value));
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
