package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 10,000 seeded malformed requests, each with at least one defect that must make the server refuse it
 * (bad JSON, wrong types, missing or unknown fields, non-finite or out-of-range numbers, oversized texts,
 * wrong embedding dimensions, unknown ids, bad or missing keys, other tenants, bad namespaces): no answer
 * is a 5xx, every answer is JSON naming the problem, and the store holds exactly what it held before.
 */
class FuzzTest {
  private static final long SEED = 20261123L;
  private static final int REQUESTS = 10_000;
  @TempDir Path dir;

  @Test
  void malformedRequestsNeverFailTheServerNorChangeTheStore() throws Exception {
    try (TestServer s = new TestServer(dir)) {
      for (int i = 0; i < 5; i++) {
        s.post("/v1/namespaces/team-a/memories", "a",
            "{\"intent\":\"task " + i + "\",\"experience\":\"did " + i + "\",\"outcome\":\"success\"}");
      }
      String pending = s.post("/v1/namespaces/team-a/retrieve", "a", "{\"intent\":\"task 1\"}").json().get("retrievalId").asText();
      String before = snapshot(s);

      Map<Integer, AtomicInteger> byStatus = new ConcurrentHashMap<>();
      List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
        List<Future<?>> jobs = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int worker = t;
          jobs.add(pool.submit(() -> {
            SplittableRandom random = new SplittableRandom(SEED + worker);
            for (int i = worker; i < REQUESTS; i += 4) {
              Malformed m = malformed(random, s, pending);
              TestServer.Reply r;
              try {
                r = s.send(m.request());
              } catch (RuntimeException e) {
                failures.add(m.defect() + " " + m.request().method() + " " + m.request().uri() + " -> " + e);
                continue;
              }
              byStatus.computeIfAbsent(r.status(), k -> new AtomicInteger()).incrementAndGet();
              if (r.status() >= 500 || r.status() < 400 || r.json() == null || !r.json().at("/error/message").isTextual()) {
                failures.add(m.defect() + " " + m.request().method() + " " + m.request().uri() + " -> " + r.status() + " " + r.text());
              }
            }
            return null;
          }));
        }
        for (Future<?> j : jobs) {
          j.get();
        }
      }
      assertThat(failures).as("answers that were not a 4xx JSON error").isEmpty();
      assertThat(byStatus.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(REQUESTS);
      assertThat(byStatus.keySet()).contains(400, 401, 404, 413);
      assertThat(snapshot(s)).isEqualTo(before);
      // and the server still serves
      assertThat(s.post("/v1/namespaces/team-a/rewards", "a", "{\"retrievalId\":\"" + pending + "\",\"reward\":1}").status()).isEqualTo(200);
    }
  }

  record Malformed(String defect, HttpRequest request) {}

  private static final String[] ROUTES = {"retrieve", "rewards", "memories"};

  private static Malformed malformed(SplittableRandom random, TestServer s, String pending) {
    String route = ROUTES[random.nextInt(ROUTES.length)];
    ObjectNode body = valid(route, pending, random);
    String ns = "team-a";
    String key = s.keys.get("a");
    String method = "POST";
    String path = null;
    byte[] raw = null;
    int defect = random.nextInt(17);
    String name;
    switch (defect) {
      case 0 -> { name = "missing required field"; body.remove(route.equals("rewards") ? "retrievalId" : route.equals("memories") ? "experience" : "intent"); }
      case 1 -> { name = "wrong type"; body.set(pick(random, body), wrongValue(random)); }
      case 2 -> { name = "unknown field"; body.put("x" + random.nextInt(1000), random.nextInt()); }
      case 3 -> {
        name = "bad reward";
        route = "rewards";
        body = valid(route, pending, random);
        String[] bad = {"1e999", "-1e999", "2", "-7", "1e308", "\"1\"", "null", "true", "[1]"};
        raw = body.toString().replace("\"reward\":1.0", "\"reward\":" + bad[random.nextInt(bad.length)])
            .replace("\"reward\":-1.0", "\"reward\":" + bad[random.nextInt(bad.length)]).getBytes(StandardCharsets.UTF_8);
      }
      case 4 -> {
        name = "truncated JSON";
        byte[] full = body.toString().getBytes(StandardCharsets.UTF_8);
        raw = java.util.Arrays.copyOf(full, random.nextInt(full.length - 1));
      }
      case 5 -> { name = "no or bad key"; key = random.nextBoolean() ? null : "mlk_" + random.nextLong(); }
      case 6 -> { name = "other tenant"; ns = random.nextBoolean() ? "team-b" : "no-such-ns-" + random.nextInt(100); }
      case 7 -> {
        name = "bad namespace";
        String[] bad = {"..", "-x", "a%2Fb", "%00", "x".repeat(65), "%E2%98%83", "a%20b"};
        ns = bad[random.nextInt(bad.length)];
      }
      case 8 -> { name = "oversized text"; body.put(route.equals("memories") ? "experience" : "intent", "z".repeat(70_000)); if (route.equals("rewards")) { body.put("retrievalId", "r".repeat(100)); } }
      case 9 -> {
        name = "bad embedding";
        route = random.nextBoolean() ? "retrieve" : "memories";
        body = valid(route, pending, random);
        ArrayNode e = body.putArray("embedding");
        int n = random.nextBoolean() ? 1 + random.nextInt(383) : 385 + random.nextInt(100);
        for (int i = 0; i < n; i++) {
          e.add(random.nextDouble());
        }
        if (random.nextBoolean()) {
          e.set(random.nextInt(n), Json.MAPPER.getNodeFactory().textNode("NaN"));
        }
      }
      case 10 -> { name = "bad outcome"; route = "memories"; body = valid(route, pending, random); body.put("outcome", random.nextBoolean() ? "succeeded" : ""); }
      case 11 -> {
        name = "unknown or malformed retrieval";
        route = "rewards";
        body = valid(route, pending, random);
        String[] bad = {"r999999", "../r1", "r 1", "", "rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr"};
        body.put("retrievalId", bad[random.nextInt(bad.length)]);
      }
      case 12 -> {
        name = "unknown memory id";
        method = random.nextBoolean() ? "GET" : "DELETE";
        String[] bad = {"m999999", "m-1", "x", "m99999999999999999999", "%2e%2e"};
        path = "/v1/namespaces/" + ns + "/memories/" + bad[random.nextInt(bad.length)];
      }
      case 13 -> { name = "duplicate key"; raw = ("{\"intent\":\"a\",\"intent\":\"b\"," + body.toString().substring(1)).getBytes(StandardCharsets.UTF_8); }
      case 14 -> { name = "deep nesting"; raw = ("{\"intent\":" + "[".repeat(5000) + "]".repeat(5000) + "}").getBytes(StandardCharsets.UTF_8); }
      case 15 -> {
        name = "not UTF-8 or not an object";
        byte[][] bad = {{(byte) 0xC3, (byte) 0x28}, "[]".getBytes(), "\"text\"".getBytes(), "42".getBytes(), new byte[0], "null".getBytes(),
            {'{', '"', 'i', 'n', 't', 'e', 'n', 't', '"', ':', '"', (byte) 0xFF, '"', '}'}};
        raw = bad[random.nextInt(bad.length)];
      }
      default -> {
        name = "oversized body";
        raw = new byte[(1 << 20) + 1 + random.nextInt(1000)];
        java.util.Arrays.fill(raw, (byte) ' ');
        raw[0] = '{';
      }
    }
    if (path == null) {
      path = "/v1/namespaces/" + ns + "/" + route;
    }
    byte[] bytes = raw != null ? raw : body.toString().getBytes(StandardCharsets.UTF_8);
    HttpRequest.Builder b = HttpRequest.newBuilder(s.uri(path)).timeout(Duration.ofSeconds(30))
        .method(method, method.equals("POST") ? HttpRequest.BodyPublishers.ofByteArray(bytes) : HttpRequest.BodyPublishers.noBody());
    if (key != null) {
      b.header("Authorization", "Bearer " + key);
    }
    return new Malformed(name, b.build());
  }

  private static ObjectNode valid(String route, String pending, SplittableRandom random) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    switch (route) {
      case "retrieve" -> o.put("intent", "task " + random.nextInt(5));
      case "rewards" -> {
        o.put("retrievalId", pending);
        o.put("reward", random.nextBoolean() ? 1.0 : -1.0);
      }
      default -> {
        o.put("intent", "task " + random.nextInt(5));
        o.put("experience", "new step " + random.nextInt());
        o.put("outcome", "success");
      }
    }
    return o;
  }

  private static String pick(SplittableRandom random, ObjectNode body) {
    List<String> names = new ArrayList<>();
    body.fieldNames().forEachRemaining(names::add);
    return names.get(random.nextInt(names.size()));
  }

  private static com.fasterxml.jackson.databind.JsonNode wrongValue(SplittableRandom random) {
    var f = Json.MAPPER.getNodeFactory();
    return switch (random.nextInt(5)) {
      case 0 -> f.objectNode().put("a", 1);
      case 1 -> f.arrayNode().add(1).add("x");
      case 2 -> f.booleanNode(random.nextBoolean());
      case 3 -> f.numberNode(random.nextLong());
      default -> f.nullNode();
    };
  }

  /** Every memory of every namespace with its utility, plus pending retrievals and recorded configurations. */
  private static String snapshot(TestServer s) {
    Map<String, String> out = new TreeMap<>();
    for (String ns : s.loop.store().namespaces()) {
      s.loop.store().forEachMemory(ns, m -> out.put(ns + "/" + m.id(), m.q() + "/" + m.visits() + "/" + m.experience()));
      out.put(ns + " stats", s.loop.stats(ns).toString());
      out.put(ns + " config", String.valueOf(s.loop.recordedConfig(ns)));
    }
    out.put("namespaces", new java.util.TreeSet<>(s.loop.store().namespaces()).toString());
    return out.toString();
  }
}
