package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.server.Json;
import io.memloop.Checks;
import io.memloop.MemLoopException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "reward", description = "Reward the memories a retrieval selected with the task's outcome (Q <- Q + alpha (r - Q);"
    + " with --next, r + gamma * max Q' of the next step).")
final class RewardCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;
  @Mixin RemoteOptions remote;

  @Option(names = "--retrieval", paramLabel = "ID", required = true, description = "The id printed by retrieve.")
  String retrievalId;

  @Option(names = "--reward", paramLabel = "R", required = true,
      description = "The episode's reward, within the preset's [rewardMin, rewardMax] (memrl: 1 success, -1 failure).")
  String reward;

  @Option(names = "--used", paramLabel = "ID,...",
      description = "The memories the agent actually used (ids printed by retrieve; give --used= for none). Per-task"
          + " learning credits them; without it, the highest-ranked success experience shown is assumed used.")
  @Nullable List<String> used;

  @Option(names = "--next", paramLabel = "ID",
      description = "For one step of a multi-step episode: the episode's next retrieval. The reward's target becomes"
          + " reward + gamma * (highest utility among what that retrieval selected), a Bellman/TD update"
          + " (--set gamma=0.9 when the namespace is created; gamma=0, the default, ignores it).")
  @Nullable String next;

  /**
   * The ids {@code --used} lists (comma-separated, repeatable); a lone empty value ({@code --used=}) is none. An empty
   * element ({@code m2,,m3}, {@code m2,}) is refused: it is a typo or a lost id, not "no memory".
   */
  static List<String> usedIds(List<String> values) {
    if (values.size() == 1 && values.get(0).isEmpty()) {
      return List.of();
    }
    List<String> ids = new java.util.ArrayList<>();
    for (String value : values) {
      String[] parts = value.split(",", -1);
      for (int i = 0; i < parts.length; i++) {
        if (parts[i].isEmpty()) {
          throw MemLoopException.invalid("--used", "has an empty id at position " + (ids.size() + 1) + " in '"
              + Embeddings.abbreviate(value) + "' (give --used= for none)");
        }
        ids.add(Ids.require(parts[i], "--used"));
      }
    }
    return ids;
  }

  @Override
  public Integer call() {
    double r = Checks.parseDecimal(reward, "--reward");
    Ids.require(retrievalId, "--retrieval");
    if (next != null) {
      Ids.require(next, "--next");
    }
    List<String> usedIds = used == null ? null : usedIds(used);
    try (DataAccess data = DataAccess.open(engine, remote, spec, false, null)) {
      JsonNode result = data.reward(retrievalId, r, usedIds, next);
      PrintWriter out = spec.commandLine().getOut();
      if (engine.json) {
        out.println(Json.write(result));
      } else {
        // the answer names the target only where it differs from the reward (a step towards the next one's value)
        double target = result.has("target") ? result.path("target").asDouble() : r;
        JsonNode changes = result.path("updated");
        out.printf(Locale.ROOT, "rewarded %s with %s%s: %d memories updated%n", result.path("retrievalId").asText(), r,
            next == null ? "" : String.format(Locale.ROOT, " (target %.4f with %s)", target, next), changes.size());
        for (JsonNode c : changes) {
          out.printf(Locale.ROOT, "  %s q %.4f -> %.4f (visits %d)%n", c.path("id").asText(), c.path("qBefore").asDouble(),
              c.path("qAfter").asDouble(), c.path("visits").asLong());
        }
      }
    }
    return 0;
  }
}
