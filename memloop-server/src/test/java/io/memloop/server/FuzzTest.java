package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 12,000 seeded malformed requests over raw loopback sockets, each with at least one defect that must make the
 * server refuse it: bad JSON, wrong types, missing or unknown fields, non-finite or out-of-range numbers, oversized
 * texts, wrong embedding dimensions, unknown, forged or other tenants' ids, bad or missing keys, other tenants, bad
 * namespaces; and the trust boundary's (issue 23): cross-site Origins, non-JSON content types, rebinding Hosts,
 * undocumented methods, malformed percent-escapes, bodies that are not strict UTF-8, intents with nothing visible,
 * bad JSON-RPC bodies and other keys' sessions on /mcp. No answer is a 5xx, none hangs (each has a timeout), every
 * one is JSON naming the problem without a stack trace, class name or path ({@link Leaks}), and the store holds
 * exactly what it held before.
 */
class FuzzTest {
  private static final long SEED = 20261123L;
  private static final int REQUESTS = 12_000;
  private static final java.time.Duration TIMEOUT = java.time.Duration.ofSeconds(30);
  @TempDir Path dir;

  @Test
  void malformedRequestsNeverFailTheServerNorChangeTheStore() throws Exception {
    try (TestServer s = new TestServer(dir)) {
      for (int i = 0; i < 5; i++) {
        s.post("/v1/namespaces/team-a/memories", "a",
            "{\"intent\":\"task " + i + "\",\"experience\":\"did " + i + "\",\"outcome\":\"success\"}");
      }
      String pending = s.post("/v1/namespaces/team-a/retrieve", "a", "{\"intent\":\"task 1\"}").json().get("retrievalId").asText();
      String foreignMemory = s.post("/v1/namespaces/team-b/memories", "b",
          "{\"intent\":\"task b\",\"experience\":\"did b\",\"outcome\":\"success\"}").json().get("id").asText();
      String session = TrustBoundaryTest.initialize(s, "a");
      Context ctx = new Context(s, pending, foreignMemory, session);
      String before = snapshot(s);

      Map<Integer, AtomicInteger> byStatus = new ConcurrentHashMap<>();
      Map<String, AtomicInteger> byDefect = new ConcurrentHashMap<>();
      List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      long started = System.nanoTime();
      try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
        List<Future<?>> jobs = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int worker = t;
          jobs.add(pool.submit(() -> {
            SplittableRandom random = new SplittableRandom(SEED + worker);
            for (int i = worker; i < REQUESTS; i += 4) {
              Malformed m = malformed(random, ctx);
              RawHttp.Answer r = RawHttp.send(s.server.port(), m.method(), m.target(), m.headers(), m.body(), TIMEOUT);
              byStatus.computeIfAbsent(r.status(), k -> new AtomicInteger()).incrementAndGet();
              byDefect.computeIfAbsent(m.defect(), k -> new AtomicInteger()).incrementAndGet();
              String problem = problem(r);
              if (problem != null) {
                failures.add(m.defect() + " " + m.method() + " " + Requests.abbreviate(m.target()) + " -> " + problem + ": "
                    + Requests.abbreviate(r.raw()));
              }
            }
            return null;
          }));
        }
        for (Future<?> j : jobs) {
          j.get();
        }
      }
      long millis = (System.nanoTime() - started) / 1_000_000;
      System.out.println("fuzz: " + REQUESTS + " requests in " + millis + " ms; by status " + new TreeMap<>(byStatus)
          + "; by defect " + new TreeMap<>(byDefect));
      assertThat(failures).as("answers that were not a clean 4xx JSON error").isEmpty();
      assertThat(byStatus.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(REQUESTS);
      assertThat(byStatus.keySet()).contains(400, 401, 403, 404, 405, 413, 415, 421);
      assertThat(byDefect).hasSize(DEFECTS);
      assertThat(snapshot(s)).isEqualTo(before);
      // and the server still serves
      assertThat(s.post("/v1/namespaces/team-a/rewards", "a", "{\"retrievalId\":\"" + pending + "\",\"reward\":1}").status()).isEqualTo(200);
    }
  }

  /** Null if {@code r} is a clean refusal: a 4xx in time, JSON with an error message, nothing leaked. */
  private static @Nullable String problem(RawHttp.Answer r) {
    if (r.status() < 0) {
      return "no answer within " + TIMEOUT;
    }
    if (r.status() < 400 || r.status() >= 500) {
      return "status " + r.status();
    }
    String leak = Leaks.find(r.raw());
    if (leak != null) {
      return "leaks '" + leak + "'";
    }
    if (!String.valueOf(r.headers().get("content-type")).startsWith("application/json")) {
      return "not JSON";
    }
    try {
      if (!Json.MAPPER.readTree(r.body()).at("/error/message").isTextual()) {
        return "no error message";
      }
    } catch (java.io.IOException e) {
      return "unparseable JSON";
    }
    return null;
  }

  record Context(TestServer s, String pending, String foreignMemory, String session) {}

  record Malformed(String defect, String method, String target, Map<String, String> headers, byte[] body) {}

  private static final int DEFECTS = 30;

  private static final String[] ROUTES = {"retrieve", "rewards", "memories"};

  private static Malformed malformed(SplittableRandom random, Context ctx) {
    TestServer s = ctx.s();
    String pending = ctx.pending();
    Map<String, String> headers = new java.util.LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    String route = ROUTES[random.nextInt(ROUTES.length)];
    ObjectNode body = valid(route, pending, random);
    String ns = "team-a";
    String key = s.keys.get("a");
    String method = "POST";
    String path = null;
    byte[] raw = null;
    int defect = random.nextInt(DEFECTS);
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
      case 16 -> {
        name = "cross-site origin";
        String[] bad = {"http://evil.example", "null", "https://localhost:1", "http://127.0.0.1.evil.example", "file://", "http://[::1]:9"};
        headers.put("Origin", bad[random.nextInt(bad.length)]);
      }
      case 17 -> {
        name = "not a JSON content type";
        String[] bad = {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b", "application/json; charset=latin1",
            "application/jsonx", "", "text/json"};
        String t = bad[random.nextInt(bad.length)];
        if (t.isEmpty()) {
          headers.remove("Content-Type");
        } else {
          headers.put("Content-Type", t);
        }
      }
      case 18 -> {
        name = "rebinding host";
        String[] bad = {"evil.example", "evil.example:" + s.server.port(), "127.0.0.1.nip.io", "localhost.evil.example", "[::2]", "10.0.0.1"};
        headers.put("Host", bad[random.nextInt(bad.length)]);
        if (random.nextBoolean()) {
          method = random.nextBoolean() ? "GET" : "POST";
          path = random.nextBoolean() ? "/v1/health" : "/mcp";
        }
      }
      case 19 -> {
        name = "undocumented method";
        String[] bad = {"TRACE", "PROPPATCH", "PROPFIND", "OPTIONS", "MKCOL", "LOCK", "X-" + random.nextInt(1000), "DEBUG", "TRACK"};
        method = bad[random.nextInt(bad.length)];
        String[] paths = {"/mcp", "/v1/health", "/metrics", "/v1/namespaces/team-a/stats", "/v1/namespaces/team-a/memories", "/nowhere"};
        path = paths[random.nextInt(paths.length)];
      }
      case 20 -> {
        name = "malformed path";
        String[] bad = {"team-a%u0041", "%zz", "%", "%2", "a%2Fb", "a%5cb", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", "%FF", "x".repeat(2100),
            "team-a%0A", "%25zz%"};
        method = random.nextBoolean() ? "GET" : "POST";
        path = "/v1/namespaces/" + bad[random.nextInt(bad.length)] + (method.equals("GET") ? "/stats" : "/" + route);
        if (random.nextInt(4) == 0) {
          key = null;
        }
      }
      case 21 -> {
        name = "body not strict UTF-8";
        byte[][] bad = {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0x80}, {(byte) 0xC2}};
        String json = body.toString();
        int cut = json.indexOf("\":\"") + 3;
        if (cut < 3) {
          cut = 1;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(json.substring(0, cut).getBytes(StandardCharsets.UTF_8));
        out.writeBytes(bad[random.nextInt(bad.length)]);
        out.writeBytes(json.substring(cut).getBytes(StandardCharsets.UTF_8));
        raw = out.toByteArray();
      }
      case 22 -> {
        name = "intent with nothing visible";
        route = random.nextBoolean() ? "retrieve" : "memories";
        body = valid(route, pending, random);
        String[] bad = {"\\u00a0", "\\u200b", "\\u200c\\u200d", "\\u2060", "\\ufeff", "\\u0000", "\\u0301", "\\ud800", "x\\udfff", "\\t\\n\\u3000",
            "\\u202e", "\\u0007\\u0301"};
        raw = body.toString().replaceFirst("\"intent\":\"[^\"]*\"", "\"intent\":\"" + java.util.regex.Matcher.quoteReplacement(
            bad[random.nextInt(bad.length)]) + "\"").getBytes(StandardCharsets.UTF_8);
      }
      case 23 -> {
        name = "bad JSON-RPC body";
        method = "POST";
        path = "/mcp";
        headers.put("Accept", "application/json, text/event-stream");
        if (random.nextBoolean()) {
          headers.put("Mcp-Session-Id", ctx.session());
        }
        String[] bad = {"null", "[]", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", "{}", "42", "\"x\"", "true",
            "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", "{\"jsonrpc\":\"2.0\",\"id\":1}",
            "{\"jsonrpc\":\"2.0\",\"method\":null}", "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":\"x\"}", "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{\"code\":1}}", "{\"jsonrpc\":", "", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"id\":2}"};
        raw = bad[random.nextInt(bad.length)].getBytes(StandardCharsets.UTF_8);
      }
      case 24 -> {
        name = "mcp session of another key or none";
        path = "/mcp";
        method = new String[] {"POST", "GET", "DELETE"}[random.nextInt(3)];
        headers.put("Accept", "application/json, text/event-stream");
        boolean other = random.nextBoolean();
        key = other ? s.keys.get(random.nextBoolean() ? "b" : "ops") : key;
        headers.put("Mcp-Session-Id", other ? ctx.session() : "no-such-" + random.nextInt(1000));
        raw = method.equals("POST") ? "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"remember_experience\",\"arguments\":{\"intent\":\"t\",\"experience\":\"e\",\"outcome\":\"success\"}}}".getBytes(StandardCharsets.UTF_8) : new byte[0];
      }
      case 25 -> {
        name = "mcp without a key, or refused by the transport";
        path = "/mcp";
        method = "POST";
        headers.put("Accept", random.nextBoolean() ? "application/json" : "text/html");
        if (random.nextBoolean()) {
          key = null;
          headers.put("Accept", "application/json, text/event-stream");
        }
        raw = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8);
      }
      case 26 -> {
        name = "forged or foreign id";
        String[] ids = {ctx.foreignMemory(), "m_" + "A".repeat(22), forge(ctx.foreignMemory(), random), "m1", "m2", "r3", "i1", "m_%s".formatted("x".repeat(21))};
        String id = ids[random.nextInt(ids.length)];
        switch (random.nextInt(3)) {
          case 0 -> {
            method = random.nextBoolean() ? "GET" : "DELETE";
            path = "/v1/namespaces/team-a/memories/" + id;
          }
          case 1 -> {
            route = "rewards";
            body = valid(route, pending, random);
            body.put("retrievalId", id.replaceFirst("^m", "r"));
          }
          default -> {
            route = "rewards";
            body = valid(route, pending, random);
            body.put("reward", 1.0);
            body.putArray("usedMemoryIds").add(id);
          }
        }
      }
      case 27 -> {
        name = "bad page cursor or limit";
        method = "GET";
        String[] bad = {"after=m1", "after=" + ctx.foreignMemory(), "after=%zz", "limit=0", "limit=-1", "limit=99999999999", "limit=x", "after=&limit=2.5"};
        path = "/v1/namespaces/team-a/memories?" + bad[random.nextInt(bad.length)];
      }
      case 28 -> {
        name = "bad configuration";
        method = "PUT";
        path = "/v1/namespaces/team-a/config";
        String[] bad = {"{\"preset\":\"nope\"}", "{\"knobs\":{\"nope\":1}}", "{\"knobs\":{\"k1\":-5}}", "{\"knobs\":[]}", "{\"preset\":7}", "[]"};
        raw = bad[random.nextInt(bad.length)].getBytes(StandardCharsets.UTF_8);
      }
      default -> {
        name = "oversized body";
        raw = new byte[(1 << 20) + 1 + random.nextInt(1000)];
        if (random.nextBoolean()) {
          path = "/mcp";
          headers.put("Accept", "application/json, text/event-stream");
        }
        java.util.Arrays.fill(raw, (byte) ' ');
        raw[0] = '{';
      }
    }
    if (path == null) {
      path = "/v1/namespaces/" + ns + "/" + route;
    }
    byte[] bytes = raw != null ? raw : body.toString().getBytes(StandardCharsets.UTF_8);
    if (key != null) {
      headers.put("Authorization", "Bearer " + key);
    }
    boolean sendsBody = method.equals("POST") || method.equals("PUT") || bytes.length > 0 && raw != null && defect >= 16;
    return new Malformed(name, method, path, headers, sendsBody ? bytes : new byte[0]);
  }

  /** {@code id} with one character changed: a token nobody was given. */
  private static String forge(String id, SplittableRandom random) {
    int at = 2 + random.nextInt(id.length() - 2);
    char c = id.charAt(at);
    return id.substring(0, at) + (c == 'A' ? 'B' : 'A') + id.substring(at + 1);
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
