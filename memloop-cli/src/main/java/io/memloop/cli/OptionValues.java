package io.memloop.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * How an option's value may look. Texts come from agents and may start with '-' ({@code --experience '-n kube-system
 * was missing'}, {@code --intent=-x}), so the parser takes any value as given ({@link
 * CommandLine#setAllowOptionsAsOptionParameters}), with one exception that catches a forgotten value: a separate
 * argument that is exactly one of the command's option names ({@code --intent --json}, or {@code --namespace=x}) is
 * refused, naming both. Attached with '=' ({@code --intent=--json}) it is the value, whatever it looks like.
 *
 * <p>Installed as every command's preprocessor: picocli calls it with the command's remaining arguments before parsing
 * them (the top of the stack is the next argument).
 */
final class OptionValues implements CommandLine.IParameterPreprocessor {
  private OptionValues() {}

  /** Lets option values start with '-' on {@code cli} and every subcommand, guarded as the class says. */
  static void install(CommandLine cli) {
    cli.setAllowOptionsAsOptionParameters(true);
    installPreprocessor(cli);
  }

  private static void installPreprocessor(CommandLine cli) {
    cli.getCommandSpec().preprocessor(new OptionValues());
    for (CommandLine sub : cli.getSubcommands().values()) {
      installPreprocessor(sub);
    }
  }

  @Override
  public boolean preprocess(Stack<String> args, CommandSpec spec, ArgSpec argSpec, Map<String, Object> info) {
    List<String> ahead = new ArrayList<>(args);
    Collections.reverse(ahead); // in command-line order
    for (int i = 0; i < ahead.size(); i++) {
      String arg = ahead.get(i);
      if (arg.equals("--") || spec.subcommands().containsKey(arg)) {
        return false; // positional from here on, or a subcommand that checks its own arguments
      }
      OptionSpec option = spec.optionsMap().get(arg); // exact: findOption would also match a bare word
      if (option == null || option.arity().max() < 1 || i + 1 >= ahead.size()) {
        continue;
      }
      String value = ahead.get(i + 1);
      if (isOptionName(spec, value)) {
        throw new CommandLine.ParameterException(spec.commandLine(), arg + ": expected a value but found the option '"
            + Text.printable(value) + "' (a value that starts with '-' can be attached: " + arg + "=" + Text.printable(value) + ")");
      }
      i++; // the value
    }
    return false; // picocli parses the arguments as usual
  }

  /** Whether {@code arg} is one of {@code spec}'s option names, alone or with an attached value ({@code --store=x}). */
  private static boolean isOptionName(CommandSpec spec, String arg) {
    if (spec.optionsMap().containsKey(arg)) {
      return true;
    }
    int eq = arg.indexOf('=');
    return eq > 0 && arg.startsWith("--") && spec.optionsMap().containsKey(arg.substring(0, eq));
  }
}
