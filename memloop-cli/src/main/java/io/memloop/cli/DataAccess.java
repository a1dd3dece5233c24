package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.Intent;
import io.memloop.Outcome;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What the data commands do in one namespace, either on the store ({@link LocalData}) or through a running {@code
 * memloop serve} ({@link RemoteData}, {@code --url}). Every answer is the server's JSON shape ({@code
 * io.memloop.server.Json}), so a command prints the same text and {@code --json} whichever it works on; only the ids
 * differ (a server hands out opaque ones). A new command (edit, list) adds its operation here and to both sides.
 */
interface DataAccess extends AutoCloseable {
  /**
   * The store or the server the command's options name, in {@code engine.namespace}. {@code create} allows making a
   * new store (local only); {@code intent}, when the command has one, was validated by the caller.
   */
  static DataAccess open(EngineOptions engine, RemoteOptions remote, CommandSpec spec, boolean create, @Nullable Intent intent) {
    io.memloop.Checks.requireNamespace(engine.namespace);
    RemoteClient client = remote.client(spec);
    if (client != null) {
      return new RemoteData(client, engine.namespace);
    }
    return new LocalData(Session.open(engine, create, intent), engine);
  }

  /** The memory, as {@code POST /memories} answers. */
  JsonNode remember(Intent intent, String experience, Outcome outcome, @Nullable String retrievalId);

  /** The retrieval, as {@code POST /retrieve} answers. */
  JsonNode retrieve(Intent intent);

  /** The utilities changed, as {@code POST /rewards} answers. */
  JsonNode reward(String retrievalId, double reward, @Nullable List<String> used, @Nullable String next);

  void forget(String memoryId);

  /** The edited memory, as {@code PATCH /memories/{id}} answers. */
  JsonNode edit(String memoryId, String experience);

  /**
   * A page of the memories {@code query} selects (its own {@code after} unused), after cursor {@code after} (the
   * previous page's {@code next} from the same side), as {@code GET /memories} answers: {@code {"namespace",
   * "memories", "next", "total"}}.
   */
  JsonNode list(io.memloop.MemoryQuery query, @Nullable String after);

  /**
   * What {@code memloop stats --json} prints: {@code {"store", "dimension"?, "config", "namespaces": [stats with
   * "config" and "configRecorded"]}}, of this namespace or, with {@code all}, of every one.
   */
  JsonNode stats(boolean all);

  @Override
  void close();
}
