package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.Intent;
import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.server.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The data commands through a running {@code memloop serve} ({@code --url}): the server's store and ids. */
final class RemoteData implements DataAccess {
  private final RemoteClient client;
  private final String ns;

  RemoteData(RemoteClient client, String ns) {
    this.client = client;
    this.ns = ns;
  }

  @Override
  public JsonNode remember(Intent intent, String experience, Outcome outcome, @Nullable String retrievalId) {
    return client.remember(ns, intent, experience, outcome, retrievalId);
  }

  @Override
  public JsonNode retrieve(Intent intent) {
    return client.retrieve(ns, intent);
  }

  @Override
  public JsonNode reward(String retrievalId, double reward, @Nullable List<String> used, @Nullable String next) {
    return client.reward(ns, retrievalId, reward, used, next);
  }

  @Override
  public void forget(String memoryId) {
    client.forget(ns, memoryId);
  }

  @Override
  public JsonNode edit(String memoryId, String experience) {
    return client.edit(ns, memoryId, experience);
  }

  /** {@code query} as the route's parameters (only those that differ from the defaults). */
  @Override
  public JsonNode list(io.memloop.MemoryQuery query, @Nullable String after) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("limit", Integer.toString(query.limit()));
    if (after != null) {
      p.put("after", after);
    }
    if (query.text() != null) {
      p.put("text", query.text());
    }
    if (!query.outcomes().isEmpty()) {
      p.put("outcome", String.join(",", query.outcomes().stream().sorted()
          .map(o -> o.name().toLowerCase(java.util.Locale.ROOT)).toList()));
    }
    if (query.minQ() != Double.NEGATIVE_INFINITY) {
      p.put("minQ", Double.toString(query.minQ()));
    }
    if (query.maxQ() != Double.POSITIVE_INFINITY) {
      p.put("maxQ", Double.toString(query.maxQ()));
    }
    if (query.minVisits() > 0) {
      p.put("minVisits", Long.toString(query.minVisits()));
    }
    if (query.maxVisits() != Long.MAX_VALUE) {
      p.put("maxVisits", Long.toString(query.maxVisits()));
    }
    if (query.createdFrom() != null) {
      p.put("createdFrom", query.createdFrom().toString());
    }
    if (query.createdTo() != null) {
      p.put("createdTo", query.createdTo().toString());
    }
    if (query.updatedFrom() != null) {
      p.put("updatedFrom", query.updatedFrom().toString());
    }
    if (query.updatedTo() != null) {
      p.put("updatedTo", query.updatedTo().toString());
    }
    p.put("sort", query.sort().label());
    p.put("order", query.descending() ? "desc" : "asc");
    return client.list(ns, p);
  }

  /**
   * As the local command, from {@code GET /stats} and {@code GET /config} per namespace. {@code dimension} is the
   * store's as the server reports it in a namespace's {@code model} (absent from servers that do not report one);
   * {@code config} is the configuration a namespace's first use records (the default preset), as locally without
   * {@code --preset}.
   */
  @Override
  public JsonNode stats(boolean all) {
    List<String> namespaces = all ? client.namespaces() : List.of(ns);
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("store", client.label());
    List<JsonNode> shown = namespaces.stream().map(n -> {
      ObjectNode s = (ObjectNode) client.stats(n);
      JsonNode config = client.config(n);
      Map<String, String> knobs = new LinkedHashMap<>();
      config.path("knobs").properties().forEach(e -> knobs.put(e.getKey(), e.getValue().asText()));
      s.putPOJO("config", MemLoopConfig.fromSettings(knobs).asMap());
      s.put("configRecorded", config.path("recorded").asBoolean());
      return (JsonNode) s;
    }).toList();
    JsonNode dimension = shown.isEmpty() ? null : shown.getFirst().path("model").get("dimension");
    if (dimension != null) {
      o.put("dimension", dimension.asInt());
      o.put("model", shown.getFirst().path("model"));
    }
    o.put("config", MemLoopConfig.preset(Preset.DEFAULT).asMap());
    o.put("namespaces", shown);
    return Json.MAPPER.valueToTree(o);
  }

  @Override
  public void close() {}
}
