package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.embeddings.ScriptedServer;
import io.memloop.embeddings.ScriptedServer.Reply;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ./memloop} command in the ```bash blocks of README.md and docs/*.md, run in-process as
 * printed, in document order, in a temporary working directory: relative paths of {@code --input},
 * {@code --output}, {@code --store} (default {@code ./memloop-data}) and {@code --out} (default
 * {@code bench-report}) resolve there. The ```json block that a paragraph names as {@code `NAME.jsonl`}
 * is saved under that name first. Commands that need a model server are listed in {@link #SERVED}
 * (run against a loopback scripted model) or {@link #NOT_RUN} with the reason; the full benchmark runs at quick
 * size ({@link #SCALED}).
 */
class DocsExamplesTest {
  private static final Pattern FENCE = Pattern.compile("```(\\w*)\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern FILE_NAME = Pattern.compile("`([\\w.-]+\\.jsonl)`");

  /** Needs a chat model: played by the scripted loopback model of {@link BenchLlmCliTest}. */
  private static final String SERVED = "./memloop bench --policy openai --base-url http://localhost:11434";

  /** Not run, with the reason. */
  private static final Map<String, String> NOT_RUN = Map.of(
      "MEMLOOP_OPENAI_API_KEY=sk-... ./memloop bench --policy openai --base-url https://api.openai.com",
      "needs OpenAI's service and a key; its options are the served command's",
      "./memloop serve", "runs until stopped: ServiceDocsTest runs its whole block with bash, curl and python3",
      "MEMLOOP_API_KEY=\"$KEY\" ./memloop", "needs that running server: ServiceDocsTest runs it");

  /**
   * Run smaller than printed, with the reason: the full benchmark is the quick run's pipeline at full size and
   * twice the epochs (about two minutes on 2 cores); its numbers are BENCHMARKS.md's, and the newcomer check runs it
   * as printed.
   */
  private static final Map<List<String>, List<String>> SCALED = Map.of(List.of("bench"), List.of("bench", "--quick"));

  @TempDir Path work;

  /** A command of a doc; {@code capture} names the shell variable its output goes into ({@code R=$(...)}), or null. */
  record Command(String source, String line, List<String> args, String capture) {}

  /** The shell variables the docs' commands set ({@code R=$(./memloop retrieve ... --id-only)}), for later commands. */
  private final Map<String, String> variables = new java.util.HashMap<>();
  private static final Pattern CAPTURE = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)=\\$\\((.*)\\)$");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)\\}?");

  @Test
  void everyCommandInTheDocs_runsAsPrinted() throws Exception {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> files = Files.list(root.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    List<Command> ran = new ArrayList<>();
    for (Path doc : docs) {
      String text = Files.readString(doc, StandardCharsets.UTF_8);
      Matcher block = FENCE.matcher(text);
      int previousEnd = 0;
      while (block.find()) {
        String before = text.substring(previousEnd, block.start());
        previousEnd = block.end();
        if (block.group(1).equals("json")) {
          Matcher name = FILE_NAME.matcher(before);
          String file = null;
          while (name.find()) {
            file = name.group(1);
          }
          if (file != null) {
            Files.writeString(work.resolve(file), block.group(2), StandardCharsets.UTF_8);
          }
        } else if (block.group(1).equals("console") && doc.getFileName().toString().equals("README.md")
            && before.contains("## Try it")) {
          // the first screen's session with its output, as printed, run in the same directory, output compared
          for (var step : session(block.group(2))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            List<String> args = new ArrayList<>(words(step.getKey()).subList(1, words(step.getKey()).size()));
            relocate(args, "--store", "./memloop-data");
            int code = MemLoopCli.execute(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
            assertThat(code).as("README session: %s%nstderr: %s", step.getKey(), err).isZero();
            assertThat(out.toString().strip()).as("README session: the output printed under %s", step.getKey())
                .isEqualTo(step.getValue().strip());
          }
        } else if (block.group(1).equals("bash")) {
          for (Command c : commands(doc.getFileName().toString(), block.group(2))) {
            run(c);
            ran.add(c);
          }
        }
      }
    }
    assertThat(ran).extracting(Command::line).anyMatch(l -> l.startsWith("./memloop bench --quick"))
        .anyMatch(l -> l.startsWith("./memloop replay --input episodes.jsonl"))
        .anyMatch(l -> l.startsWith("./memloop reward --retrieval \"$R\""));
  }

  /** The {@code $ ./memloop ...} lines of a console block, each with the output printed under it. */
  static List<Map.Entry<String, String>> session(String block) {
    List<Map.Entry<String, String>> steps = new ArrayList<>();
    String command = null;
    StringBuilder output = new StringBuilder();
    for (String line : block.split("\n")) {
      if (line.startsWith("$ ")) {
        if (command != null) {
          steps.add(Map.entry(command, output.toString()));
        }
        command = line.substring(2).strip();
        output.setLength(0);
      } else if (command != null) {
        output.append(line).append('\n');
      }
    }
    if (command != null) {
      steps.add(Map.entry(command, output.toString()));
    }
    assertThat(steps).as("a console block of README.md runs ./memloop").allSatisfy(s -> assertThat(s.getKey()).startsWith("./memloop "));
    return steps;
  }

  private void run(Command c) throws IOException {
    if (NOT_RUN.keySet().stream().anyMatch(c.line()::startsWith)) {
      return;
    }
    List<String> args = new ArrayList<>();
    for (String a : c.args()) {
      Matcher v = VARIABLE.matcher(a);
      StringBuilder substituted = new StringBuilder();
      while (v.find()) {
        String value = variables.get(v.group(1));
        assertThat(value).as("%s: %s uses $%s, which no earlier command set", c.source(), c.line(), v.group(1)).isNotNull();
        v.appendReplacement(substituted, Matcher.quoteReplacement(value));
      }
      v.appendTail(substituted);
      args.add(substituted.toString());
    }
    if (c.line().startsWith(SERVED)) {
      try (ScriptedServer server = ScriptedServer.start((request, call) -> Reply.of(200,
          ScriptedServer.chatCompletion(BenchLlmCliTest.answer(request.messages().get(1).content()), "stop", 100, 5)))) {
        args.set(args.indexOf("--base-url") + 1, server.baseUrl());
        check(c, args);
      }
      return;
    }
    List<String> scaled = SCALED.get(args);
    String result = check(c, scaled == null ? args : new ArrayList<>(scaled));
    if (c.capture() != null) {
      variables.put(c.capture(), result.strip());
    }
  }

  private String check(Command c, List<String> args) {
    String command = args.get(0);
    relocate(args, "--input", null);
    relocate(args, "--output", null);
    relocate(args, "--event-log", null);
    if (!command.equals("bench") && !command.equals("demo") && !command.equals("evaluate")
        && !command.equals("export") && !command.equals("report")) {
      relocate(args, "--store", "./memloop-data");
    }
    if (command.equals("report")) {
      relocate(args, "--out", "decision-report");
    }
    if (command.equals("bench")) {
      relocate(args, "--out", "bench-report");
      args.add("--no-progress");
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = MemLoopCli.execute(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
    assertThat(code).as("%s: %s%nstderr: %s", c.source(), c.line(), err).isZero();
    int output = args.indexOf("--output");
    String result = output < 0 ? out.toString() : read(Path.of(args.get(output + 1)));
    assertThat(result).as("%s: %s gives its result", c.source(), c.line()).isNotBlank();
    return result;
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("no output file " + p, e);
    }
  }

  /** Resolves a relative path option (or its default, when given) in the working directory. */
  private void relocate(List<String> args, String option, String defaultValue) {
    int i = args.indexOf(option);
    if (i >= 0) {
      args.set(i + 1, work.resolve(args.get(i + 1)).toString());
    } else if (defaultValue != null) {
      args.add(option);
      args.add(work.resolve(defaultValue).toString());
    }
  }

  /** The {@code ./memloop} commands of a bash block: continuation lines joined, comments dropped. */
  static List<Command> commands(String source, String block) {
    List<Command> out = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String raw : block.split("\n")) {
      String l = raw.strip();
      if (l.endsWith("\\")) {
        line.append(l, 0, l.length() - 1).append(' ');
        continue;
      }
      line.append(l);
      String full = line.toString().strip();
      line.setLength(0);
      String capture = null;
      String command = full;
      Matcher captured = CAPTURE.matcher(full);
      if (captured.matches()) {
        capture = captured.group(1);
        command = captured.group(2).strip();
      }
      List<String> words = words(command);
      int at = words.indexOf("./memloop");
      if (at >= 0) {
        out.add(new Command(source, command, new ArrayList<>(words.subList(at + 1, words.size())), capture));
      }
    }
    return out;
  }

  /** Shell words: quotes group, {@code #} outside quotes starts a comment. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char ch = line.charAt(i);
      if (quote != 0) {
        if (ch == quote) {
          quote = 0;
        } else {
          w.append(ch);
        }
      } else if (ch == '\'' || ch == '"') {
        quote = ch;
        inWord = true;
      } else if (ch == '#' && !inWord) {
        break;
      } else if (Character.isWhitespace(ch)) {
        if (inWord) {
          words.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else {
        w.append(ch);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(w.toString());
    }
    return words;
  }
}
