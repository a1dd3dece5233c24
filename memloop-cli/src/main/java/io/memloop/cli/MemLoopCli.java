package io.memloop.cli;

import io.memloop.MemLoopException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the {@code memloop} command. Every failure becomes one readable line on stderr and
 * an exit code that says what kind of failure it was; stack traces only with {@code MEMLOOP_DEBUG=1}.
 */
@Command(
    name = "memloop",
    mixinStandardHelpOptions = true, // --help/-h and --version/-V, on every subcommand too (INHERIT)
    scope = CommandLine.ScopeType.INHERIT,
    versionProvider = MemLoopCli.Version.class,
    description = "Runtime reinforcement learning over an episodic experience memory.",
    subcommands = {
      DemoCommand.class,
      BenchCommand.class,
      RememberCommand.class,
      RetrieveCommand.class,
      RewardCommand.class,
      StatsCommand.class,
      ForgetCommand.class,
      EditCommand.class,
      ListCommand.class,
      ImportCommand.class,
      MigrateCommand.class,
      EvaluateCommand.class,
      ExportCommand.class,
      ReportCommand.class,
      ServeCommand.class,
      McpCommand.class,
      KeysCommand.class,
      ReplayCommand.class,
      CommandLine.HelpCommand.class
    })
public final class MemLoopCli implements Callable<Integer> {
  /** Exit codes, stable for scripts. */
  static final int OK = 0;
  static final int INTERNAL = 1;
  static final int USAGE = 2;
  static final int NOT_FOUND = 3;
  static final int CONFLICT = 4;
  static final int STORE = 5;
  static final int MODEL = 6;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** A bare {@code memloop}: usage on stderr, exit 2 (a command is missing). */
  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return USAGE;
  }

  public static void main(String[] args) {
    try {
      Logging.configure(System.getenv(Logging.ENV));
    } catch (IllegalArgumentException e) {
      System.err.println("memloop: " + e.getMessage());
      System.exit(USAGE);
    }
    // A background thread (Lucene's merge threads) that dies prints no stack trace: the command reports it.
    Thread.setDefaultUncaughtExceptionHandler(Failures.backgroundHandler(debug()));
    System.exit(execute(args, ConsoleWriter.of(System.out), ConsoleWriter.of(System.err)));
  }

  /** Runs the command line with the given streams; returns the exit code. */
  static int execute(String[] args, PrintWriter out, PrintWriter err) {
    return execute(commandLine(), args, out, err);
  }

  /** The {@code memloop} command line, before its streams are set. */
  static CommandLine commandLine() {
    return new CommandLine(new MemLoopCli());
  }

  /**
   * Runs {@code cli} (from {@link #commandLine}) with the given streams; returns the exit code. Whatever a command
   * throws, an Error included, ends as one line on {@code err} (see {@link Failures}).
   */
  static int execute(CommandLine cli, String[] args, PrintWriter out, PrintWriter err) {
    cli.setOut(out);
    cli.setErr(err);
    // Arguments come from agents: "@file" is text, never a file of more arguments.
    cli.setExpandAtFiles(false);
    // Texts may start with '-' (--experience '-n kube-system was missing'); a forgotten value is still caught.
    OptionValues.install(cli);
    cli.setParameterExceptionHandler((ex, a) -> {
      err.println("memloop: " + Text.printable(ex.getMessage()) + suggestion(ex) + hint(ex.getCommandLine()));
      return USAGE;
    });
    cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> Failures.report(ex, err, debug()));
    int code;
    try {
      code = cli.execute(args);
    } catch (Throwable t) { // an Error (out of memory, stack overflow) passes picocli's handlers
      out.flush();
      code = Failures.report(t, err, debug());
    }
    Failures.Background background = Failures.takeBackground();
    if (background != null && code == OK) {
      err.println("memloop: warning: background thread " + Text.printable(background.thread()) + " failed: "
          + Text.printable(Failures.line(background.failure())));
    }
    out.flush();
    err.flush();
    return code;
  }

  static int exitCode(MemLoopException.Reason reason) {
    return switch (reason) {
      case INVALID_ARGUMENT -> USAGE;
      case NOT_FOUND -> NOT_FOUND;
      case CONFLICT -> CONFLICT;
      case STORE_CORRUPT, STORE_UNAVAILABLE -> STORE;
      case EMBEDDING_FAILED, MODEL_FAILED -> MODEL;
    };
  }

  /** "see 'memloop keys add --help'": the command's full name, its parents' included. */
  private static String hint(CommandLine cl) {
    return " (see '" + qualifiedName(cl) + " --help')";
  }

  static String qualifiedName(CommandLine cl) {
    java.util.ArrayDeque<String> names = new java.util.ArrayDeque<>();
    for (CommandLine c = cl; c != null; c = c.getParent()) {
      names.addFirst(c.getCommandName());
    }
    return String.join(" ", names);
  }

  /**
   * For a mistyped command or option, the nearest that exist: "; did you mean 'retrieve'?". Among picocli's
   * candidates, those at the smallest edit distance (transpositions count once), if it is small for the
   * word's length; empty when nothing is near.
   */
  static String suggestion(CommandLine.ParameterException ex) {
    if (!(ex instanceof CommandLine.UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
      return "";
    }
    String typed = unmatched.getUnmatched().getFirst();
    String word = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
    int best = Integer.MAX_VALUE;
    List<String> nearest = new java.util.ArrayList<>();
    for (String candidate : unmatched.getSuggestions()) {
      int d = editDistance(word, candidate);
      if (d < best) {
        best = d;
        nearest.clear();
      }
      if (d == best && !nearest.contains(candidate)) {
        nearest.add(candidate);
      }
    }
    if (nearest.isEmpty() || best > Math.max(2, word.length() / 3)) {
      return "";
    }
    return "; did you mean " + nearest.stream().limit(3).map(x -> "'" + Text.printable(x) + "'")
        .collect(java.util.stream.Collectors.joining(" or ")) + "?";
  }

  /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
  static int editDistance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  private static boolean debug() {
    return "1".equals(System.getenv("MEMLOOP_DEBUG"));
  }

  /** The project version, from a resource Maven filters at build time. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties p = new Properties();
      try (InputStream in = MemLoopCli.class.getResourceAsStream("version.properties")) {
        if (in == null) {
          throw new IOException("version.properties is missing from the build");
        }
        p.load(in);
      }
      return new String[] {"memloop " + p.getProperty("version")};
    }
  }
}
