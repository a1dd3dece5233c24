package io.memloop.cli;

import io.memloop.MemLoopException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --url} and {@code --key-file}: a data command works through a running {@code memloop serve} instead of
 * opening the store (which that server holds). The key comes from {@code MEMLOOP_API_KEY} or a file, never from the
 * command line, where other users of the machine could read it.
 */
final class RemoteOptions {
  static final String URL_ENV = "MEMLOOP_URL";
  static final String KEY_ENV = "MEMLOOP_API_KEY";

  /** The options of the local engine, which a command sent to a server cannot honour. */
  static final List<String> LOCAL_ONLY = List.of("--store", "--preset", "--reconfigure", "--set", "--embedder",
      "--openai-base-url", "--openai-model", "--openai-dimension", "--dimension", "--lock-timeout", "--event-log",
      "--event-log-embeddings");

  @Option(names = "--url", paramLabel = "http://HOST:PORT",
      description = "Work through a running 'memloop serve' at this address instead of opening the store (default: "
          + "$" + URL_ENV + "). The API key comes from $" + KEY_ENV + " or --key-file; ids are the server's.")
  @Nullable String url;

  @Option(names = "--key-file", paramLabel = "FILE",
      description = "With --url: a file holding the API key (default: $" + KEY_ENV + "). Never give a key on the command line.")
  @Nullable Path keyFile;

  /** The environment the defaults come from (tests give their own). */
  static Map<String, String> environment = System.getenv();

  /**
   * The client for the server the command should talk to, or null to work on the store. Refuses local-store options
   * given with a server (they would be ignored silently), and a key file without a server.
   */
  @Nullable RemoteClient client(CommandSpec spec) {
    String address = url != null ? url : environment.get(URL_ENV);
    if (address == null || address.isBlank()) {
      if (keyFile != null) {
        throw MemLoopException.invalid("--key-file", "is only used with --url (or " + URL_ENV + ")");
      }
      return null;
    }
    String from = url != null ? "--url" : URL_ENV;
    for (String option : LOCAL_ONLY) {
      if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
        throw MemLoopException.invalid(option, "cannot be used with " + from + ": the server works on its own store, "
            + "model and configuration (set them where 'memloop serve' runs)");
      }
    }
    return new RemoteClient(base(address, from), key());
  }

  static URI base(String address, String from) {
    URI uri;
    try {
      uri = new URI(address.strip());
    } catch (URISyntaxException e) {
      throw MemLoopException.invalid(from, "expected http://HOST:PORT, got '" + Embeddings.abbreviate(address) + "'");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getRawQuery() != null
        || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
      throw MemLoopException.invalid(from, "expected http://HOST:PORT (or https://), got '" + Embeddings.abbreviate(address) + "'");
    }
    String s = uri.toString();
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return URI.create(s);
  }

  private @Nullable String key() {
    if (keyFile != null) {
      String key;
      try {
        key = Files.readString(keyFile, StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        throw MemLoopException.invalid("--key-file", "cannot read " + keyFile + ": " + Failures.line(e));
      }
      if (key.isEmpty() || key.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
        throw MemLoopException.invalid("--key-file", keyFile + " does not hold a key (one line of printable ASCII)");
      }
      return key;
    }
    String key = environment.get(KEY_ENV);
    return key == null || key.isBlank() ? null : key.strip();
  }
}
