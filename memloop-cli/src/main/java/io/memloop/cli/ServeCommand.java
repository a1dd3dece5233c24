package io.memloop.cli;

import io.memloop.MemLoop;
import io.memloop.MemLoopException;
import io.memloop.server.ApiKeys;
import io.memloop.server.IdCodec;
import io.memloop.server.MemLoopServer;
import io.memloop.server.ServerOptions;
import io.memloop.server.DecisionReports;
import io.memloop.server.ServerActivity;
import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import io.memloop.history.OffPolicyEvaluation;
import io.memloop.history.report.DecisionReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "serve",
    description = {"Serves the store over HTTP/JSON (/v1/...) and MCP (/mcp) for many agents at once, until stopped "
        + "(Ctrl-C or SIGTERM: in-flight requests finish, the store closes cleanly).",
        "Every /v1/namespaces route and /mcp need an API key: create one with 'memloop keys add'."})
final class ServeCommand implements Callable<Integer> {
  /** Keys a --config file may set: the long option names without dashes. */
  private static final Set<String> FILE_KEYS =
      Set.of("store", "embedder", "host", "port", "keys", "max-body-bytes", "drain-timeout", "mcp", "lock-timeout", "open-namespace", "event-log",
          "allow-origin", "allow-host", "metrics-namespaces", "id-key-file");
  /** The id key's file name, in the store's directory (or, for a Solr store, next to the keys file). */
  static final String ID_KEY_FILE = "memloop.server-key";

  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;

  @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = ServerOptions.LOOPBACK,
      description = "Address to listen on (default: ${DEFAULT-VALUE}, this machine only; for other machines put a "
          + "TLS-terminating proxy in front, see README).")
  String host = ServerOptions.LOOPBACK;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "7070", description = "TCP port (default: ${DEFAULT-VALUE}; 0: any free port).")
  int port = ServerOptions.DEFAULT_PORT;

  @Option(names = "--keys", paramLabel = "FILE", defaultValue = "./memloop-keys.json",
      description = "API keys file, made by 'memloop keys add' (default: ${DEFAULT-VALUE}).")
  Path keys = Path.of("./memloop-keys.json");

  @Option(names = "--max-body-bytes", paramLabel = "N", defaultValue = "1048576", description = "Largest request body (default: ${DEFAULT-VALUE}).")
  int maxBodyBytes = 1 << 20;

  @Option(names = "--drain-timeout", paramLabel = "SECONDS", defaultValue = "10",
      description = "On stop, how long in-flight requests may take to finish (default: ${DEFAULT-VALUE}).")
  int drainSeconds = 10;

  @Option(names = "--mcp", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Serve MCP (streamable HTTP) at /mcp (default: on; --no-mcp turns it off).")
  boolean mcp = true;

  @Option(names = "--open-namespace", paramLabel = "NS",
      description = "For one user on this machine: requests without an API key act in NS (only NS). Loopback --host only; "
          + "with it, a keys file is optional.")
  @Nullable String openNamespace;

  @Option(names = "--allow-origin", paramLabel = "URL",
      description = "A browser origin (scheme://host[:port]) whose pages may call the server (repeatable). By default "
          + "every request that carries an Origin header (a browser page) is refused, except this server's own loopback origin.")
  java.util.List<String> allowOrigins = new java.util.ArrayList<>();

  @Option(names = "--allow-host", paramLabel = "NAME",
      description = "A host name the Host header may carry (repeatable), e.g. the name a reverse proxy forwards. On a loopback "
          + "--host, localhost, 127.0.0.1 and [::1] are always accepted and other names refused (DNS rebinding); on another "
          + "address, when given, only these names are accepted.")
  java.util.List<String> allowHosts = new java.util.ArrayList<>();

  @Option(names = "--metrics-namespaces", defaultValue = "false",
      description = "Label /metrics series with namespace names (and show each namespace's memory count). Off by default: "
          + "/metrics needs no key, so it would show every tenant's names and volumes.")
  boolean metricsNamespaces;

  @Option(names = "--id-key-file", paramLabel = "FILE",
      description = "The secret that makes the ids handed to clients opaque; created (mode 0600) if missing, and kept so ids "
          + "stay valid across restarts (default: " + ID_KEY_FILE + " in the store's directory; for a Solr store, next to the keys file).")
  @Nullable Path idKeyFile;

  @Option(names = "--config", paramLabel = "FILE",
      description = "A properties file with any of these options (store, embedder, host, port, keys, max-body-bytes, "
          + "drain-timeout, mcp, lock-timeout, open-namespace, event-log, allow-origin, allow-host, metrics-namespaces, "
          + "id-key-file; lists comma-separated); flags given on the command line win.")
  @Nullable Path config;

  @Override
  public Integer call() throws InterruptedException {
    if (config != null) {
      applyConfigFile(config);
    }
    if (port < 0 || port > 65_535) {
      throw MemLoopException.invalid("--port", "must be in [0, 65535] (0: any free port), got " + port);
    }
    if (maxBodyBytes < 1024 || maxBodyBytes > (64 << 20)) {
      throw MemLoopException.invalid("--max-body-bytes", "must be in [1024, " + (64 << 20) + "], got " + maxBodyBytes);
    }
    if (drainSeconds < 0 || drainSeconds > 600) {
      throw MemLoopException.invalid("--drain-timeout", "must be in [0, 600] seconds, got " + drainSeconds);
    }
    if (openNamespace != null && !ServerOptions.isLoopback(host)) {
      throw MemLoopException.invalid("--open-namespace", "serves requests without a key, so only with a loopback --host, not " + host);
    }
    Set<String> origins;
    try {
      origins = ServerOptions.defaults().withAllowedOrigins(Set.copyOf(allowOrigins)).allowedOrigins();
    } catch (MemLoopException e) {
      throw MemLoopException.invalid("--allow-origin", e.getMessage().substring(e.field().length() + 2));
    }
    ApiKeys apiKeys = ApiKeys.load(keys);
    if (apiKeys.isEmpty() && openNamespace == null) {
      throw MemLoopException.invalid("--keys", keys + " holds no API key, so every request would be refused; create one: "
          + "memloop keys add --name my-agent --namespace my-team" + (keys.equals(Path.of("./memloop-keys.json")) ? "" : " --keys " + keys));
    }
    ServerOptions options = ServerOptions.defaults().withHost(host).withPort(port).withMaxBodyBytes(maxBodyBytes)
        .withDrainTimeout(Duration.ofSeconds(drainSeconds)).withMcp(mcp)
        .withStoreDirectory(engine.isSolrStore() ? null : Session.storeDirectory(engine)).withOpenNamespace(openNamespace)
        .withAllowedHosts(Set.copyOf(allowHosts)).withMetricsNamespaces(metricsNamespaces);
    options = options.withAllowedOrigins(origins);
    // the inspector's activity sees every event of this engine, next to the event log (if any)
    ServerActivity activity = new ServerActivity();
    options = options.withActivity(activity).withReports(engine.eventLog == null ? null : reports(engine.eventLog));
    engine.learnInBackground = true; // a reward's latency: refits of the learned similarity run after it
    MemLoop loop = Session.open(engine, true, null, activity);
    MemLoopServer server;
    try {
      // made after the store opened: a new store's directory must be empty when it is created
      Path keyFile = idKeyFile != null ? idKeyFile
          : engine.isSolrStore() ? keys.toAbsolutePath().resolveSibling(ID_KEY_FILE) : Session.storeDirectory(engine).resolve(ID_KEY_FILE);
      server = MemLoopServer.start(loop, apiKeys, options.withIds(IdCodec.loadOrCreate(keyFile)));
    } catch (RuntimeException e) {
      loop.close();
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread stopper = new Thread(() -> {
      try {
        server.close();
      } finally {
        loop.close();
        stopped.countDown();
      }
    }, "memloop-shutdown");
    Runtime.getRuntime().addShutdownHook(stopper);
    PrintWriter out = spec.commandLine().getOut();
    out.println("memloop: serving " + engine.storeLabel() + " at " + server.uri()
        + " (API /v1, OpenAPI " + server.uri() + "/v1/openapi.json" + (mcp ? ", MCP " + server.uri() + "/mcp" : "")
        + ", metrics /metrics); " + apiKeys.grants().size() + " API key(s)"
        + (openNamespace == null ? "" : "; requests without a key use namespace " + openNamespace) + ". Ctrl-C stops.");
    out.flush();
    stopped.await();
    return 0;
  }

  /** The decision report of one namespace's events in the event log directory {@code log} (as {@code memloop evaluate --json}). */
  static DecisionReports reports(Path log) {
    return ns -> {
      OffPolicyEvaluation.Result r;
      try {
        r = OffPolicyEvaluation.run(log, DecisionReport.defaultCandidates(), MemLoopConfig.preset(Preset.DEFAULT), ns::equals);
      } catch (MemLoopException e) {
        if (e.reason() != MemLoopException.Reason.INVALID_ARGUMENT) {
          throw e;
        }
        return java.util.Map.of("available", false, "reason", "the event log holds no retrieval of this namespace with its reward yet");
      }
      java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
      out.put("available", true);
      out.putAll(EvaluateCommand.json(r));
      return out;
    };
  }

  private static java.util.List<String> list(String v) {
    return java.util.Arrays.stream(v.split(",")).map(String::strip).filter(x -> !x.isEmpty()).toList();
  }

  private void applyConfigFile(Path file) {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    } catch (IOException e) {
      throw MemLoopException.invalid("--config", "cannot read " + file + ": " + e.getMessage());
    }
    var parsed = spec.commandLine().getParseResult();
    for (String key : p.stringPropertyNames()) {
      if (!FILE_KEYS.contains(key)) {
        throw MemLoopException.invalid("--config", file + ": unknown key '" + Text.printable(key) + "' (known: " + String.join(", ", FILE_KEYS.stream().sorted().toList()) + ")");
      }
      if (parsed.hasMatchedOption("--" + key) || (key.equals("mcp") && parsed.hasMatchedOption("--no-mcp"))) {
        continue; // the command line wins
      }
      String v = p.getProperty(key).strip();
      try {
        switch (key) {
          case "store" -> engine.store = v;
          case "embedder" -> engine.embedder = v;
          case "host" -> host = v;
          case "port" -> port = Integer.parseInt(v);
          case "keys" -> keys = Path.of(v);
          case "max-body-bytes" -> maxBodyBytes = Integer.parseInt(v);
          case "drain-timeout" -> drainSeconds = Integer.parseInt(v);
          case "lock-timeout" -> engine.lockTimeout = v;
          case "open-namespace" -> openNamespace = v;
          case "event-log" -> engine.eventLog = Path.of(v);
          case "allow-origin" -> allowOrigins = list(v);
          case "allow-host" -> allowHosts = list(v);
          case "id-key-file" -> idKeyFile = Path.of(v);
          case "metrics-namespaces" -> {
            if (!v.equals("true") && !v.equals("false")) {
              throw new IllegalArgumentException("expected true or false");
            }
            metricsNamespaces = Boolean.parseBoolean(v);
          }
          case "mcp" -> {
            if (!v.equals("true") && !v.equals("false")) {
              throw new IllegalArgumentException("expected true or false");
            }
            mcp = Boolean.parseBoolean(v);
          }
          default -> throw new IllegalStateException(key);
        }
      } catch (IllegalArgumentException e) { // NumberFormatException, InvalidPathException
        throw MemLoopException.invalid("--config", file + ": " + key + "=" + Text.printable(v) + " is not valid: " + e.getMessage());
      }
    }
  }
}
