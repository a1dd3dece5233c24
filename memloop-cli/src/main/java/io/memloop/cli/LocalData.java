package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopException;
import io.memloop.Outcome;
import io.memloop.server.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The data commands on the store the command opened (the store's own ids). */
final class LocalData implements DataAccess {
  private final MemLoop loop;
  private final EngineOptions engine;
  private final String ns;

  LocalData(MemLoop loop, EngineOptions engine) {
    this.loop = loop;
    this.engine = engine;
    this.ns = engine.namespace;
  }

  @Override
  public JsonNode remember(Intent intent, String experience, Outcome outcome, @Nullable String retrievalId) {
    if (retrievalId != null && loop.store().retrieval(ns, retrievalId).isEmpty()) {
      throw new MemLoopException(MemLoopException.Reason.NOT_FOUND, "--retrieval",
          "--retrieval: no retrieval '" + retrievalId + "' in namespace '" + ns + "'");
    }
    return tree(Json.memory(loop.remember(ns, intent, experience, outcome, retrievalId)));
  }

  @Override
  public JsonNode retrieve(Intent intent) {
    return tree(Json.retrieval(loop.retrieve(ns, intent)));
  }

  @Override
  public JsonNode reward(String retrievalId, double reward, @Nullable List<String> used, @Nullable String next) {
    return tree(Json.reward(loop.reward(ns, retrievalId, reward, used, next)));
  }

  @Override
  public void forget(String memoryId) {
    loop.forget(ns, memoryId);
  }

  @Override
  public JsonNode edit(String memoryId, String experience) {
    return tree(Json.memory(loop.edit(ns, memoryId, experience)));
  }

  @Override
  public JsonNode list(io.memloop.MemoryQuery query, @Nullable String after) {
    io.memloop.MemoryPage page = loop.list(ns, query.after(after));
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("namespace", ns);
    o.put("memories", page.memories().stream().map(Json::memory).toList());
    o.put("next", page.next());
    o.put("total", page.total());
    return tree(o);
  }

  @Override
  public JsonNode stats(boolean all) {
    List<String> namespaces = all ? List.copyOf(loop.store().namespaces()) : List.of(ns);
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("store", engine.storeLabel());
    o.put("dimension", loop.store().dimension());
    o.put("model", Json.model(loop.store().model().orElse(null)));
    if (loop.store() instanceof io.memloop.store.lucene.LuceneStore lucene) {
      o.put("vectorFormat", lucene.vectorFormat().id());
    }
    o.put("config", loop.config().asMap());
    o.put("namespaces", namespaces.stream().map(n -> {
      Map<String, Object> s = Json.stats(loop.stats(n));
      var recorded = loop.recordedConfig(n);
      // The configuration the namespace runs under: the recorded one, or what its first use would record.
      s.put("config", recorded.orElse(loop.config()).asMap());
      s.put("configRecorded", recorded.isPresent());
      return s;
    }).toList());
    return tree(o);
  }

  private static JsonNode tree(Object value) {
    return Json.MAPPER.valueToTree(value);
  }

  @Override
  public void close() {
    loop.close();
  }
}
