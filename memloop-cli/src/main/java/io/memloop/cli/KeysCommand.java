package io.memloop.cli;

import io.memloop.server.ApiKeys;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import io.memloop.server.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(name = "keys", description = "API keys of 'memloop serve': add, list, remove. Keys are stored hashed; a new key is shown once.",
    subcommands = {KeysCommand.Add.class, KeysCommand.ListKeys.class, KeysCommand.Remove.class})
final class KeysCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--keys", paramLabel = "FILE", defaultValue = "./memloop-keys.json", scope = picocli.CommandLine.ScopeType.INHERIT,
      description = "API keys file (default: ${DEFAULT-VALUE}).")
  Path file = Path.of("./memloop-keys.json");

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return MemLoopCli.USAGE;
  }

  @Command(name = "add", description = "Creates a key for one or more namespaces and prints it (only this once).")
  static final class Add implements Callable<Integer> {
    @Spec CommandSpec spec;
    @ParentCommand KeysCommand parent;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "A name for the key (who uses it), unique in the file.")
    String name;

    @Option(names = {"-n", "--namespace"}, required = true, paramLabel = "NS",
        description = "A namespace the key may use (repeatable); '*' for every namespace (an operator key).")
    List<String> namespaces;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
      ApiKeys keys = ApiKeys.load(parent.file);
      String key = ApiKeys.newKey();
      keys.with(name, new LinkedHashSet<>(namespaces), key).save(parent.file);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(Json.write(Map.of("name", name, "namespaces", namespaces, "key", key)));
      } else {
        out.println(key);
        spec.commandLine().getErr().println("memloop: key '" + name + "' for " + String.join(", ", namespaces)
            + " saved (hashed) in " + parent.file + "; the key above is not stored anywhere: keep it now.");
      }
      return 0;
    }
  }

  @Command(name = "list", description = "Lists key names and their namespaces (never the keys).")
  static final class ListKeys implements Callable<Integer> {
    @Spec CommandSpec spec;
    @ParentCommand KeysCommand parent;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      for (ApiKeys.Grant g : ApiKeys.load(parent.file).grants()) {
        out.println(g.name() + "\t" + String.join(",", g.namespaces().stream().sorted().toList()));
      }
      return 0;
    }
  }

  @Command(name = "remove", description = "Revokes a key (a running server reads the file at start: restart it).")
  static final class Remove implements Callable<Integer> {
    @ParentCommand KeysCommand parent;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "The key's name.")
    String name;

    @Override
    public Integer call() {
      ApiKeys.load(parent.file).without(name).save(parent.file);
      return 0;
    }
  }
}
