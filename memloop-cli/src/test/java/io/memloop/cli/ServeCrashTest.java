package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.server.ApiKeys;
import io.memloop.server.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memloop serve} in its own process, killed with SIGKILL under load 20 times: after each restart
 * the store opens and every write the server acknowledged before the kill is there (each remembered
 * experience with its text; each memory with at least as many rewards as were acknowledged for it).
 */
class ServeCrashTest {
  private static final int ROUNDS = 20;
  private static final int CLIENTS = 4;
  private static final Pattern SERVING = Pattern.compile("at (http://127\\.0\\.0\\.1:\\d+)");
  @TempDir Path dir;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private String key;

  @Test
  void killedUnderLoadItLosesNoAcknowledgedWrite() throws Exception {
    Path keys = dir.resolve("keys.json");
    key = ApiKeys.newKey();
    ApiKeys.empty().with("load", Set.of("team-a"), key).save(keys);
    Map<String, String> remembered = new ConcurrentHashMap<>(); // id -> experience
    Map<String, AtomicInteger> rewarded = new ConcurrentHashMap<>(); // id -> acknowledged rewards
    AtomicInteger counter = new AtomicInteger();
    for (int round = 0; round < ROUNDS; round++) {
      Process p = start(keys);
      String base = awaitServing(p);
      verify(base, remembered, rewarded);
      CountDownLatch enough = new CountDownLatch(30);
      AtomicBoolean stop = new AtomicBoolean();
      try (ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
        List<Future<?>> jobs = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          jobs.add(clients.submit(() -> {
            while (!stop.get()) {
              int n = counter.incrementAndGet();
              String experience = "episode " + n + ": did step " + (n * 7 % 13);
              try {
                JsonNode m = post(base, "/memories", "{\"intent\":\"task " + (n % 5) + "\",\"experience\":\"" + experience + "\",\"outcome\":\"success\"}");
                if (m == null) {
                  return null; // the server is gone
                }
                remembered.put(m.get("id").asText(), experience);
                JsonNode r = post(base, "/retrieve", "{\"intent\":\"task " + (n % 5) + "\"}");
                if (r == null) {
                  return null;
                }
                JsonNode w = post(base, "/rewards", "{\"retrievalId\":\"" + r.get("retrievalId").asText() + "\",\"reward\":1}");
                if (w == null) {
                  return null;
                }
                for (JsonNode ch : w.get("updated")) {
                  rewarded.computeIfAbsent(ch.get("id").asText(), k -> new AtomicInteger()).incrementAndGet();
                }
                enough.countDown();
              } catch (IOException e) {
                return null; // killed mid-request: not acknowledged
              }
            }
            return null;
          }));
        }
        enough.await();
        p.destroyForcibly(); // SIGKILL while the clients are still writing
        p.waitFor();
        stop.set(true);
        for (Future<?> j : jobs) {
          j.get();
        }
      }
    }
    Process last = start(keys);
    try {
      verify(awaitServing(last), remembered, rewarded);
    } finally {
      last.destroy();
      last.waitFor();
    }
    assertThat(remembered).hasSizeGreaterThanOrEqualTo(ROUNDS * 30);
  }

  private void verify(String base, Map<String, String> remembered, Map<String, AtomicInteger> rewarded) throws Exception {
    Map<String, JsonNode> stored = new ConcurrentHashMap<>();
    String after = null;
    do {
      JsonNode page = get(base, "/memories?limit=1000" + (after == null ? "" : "&after=" + after));
      page.get("memories").forEach(m -> stored.put(m.get("id").asText(), m));
      after = page.get("next").isNull() ? null : page.get("next").asText();
    } while (after != null);
    for (var e : remembered.entrySet()) {
      assertThat(stored).as("acknowledged memory %s", e.getKey()).containsKey(e.getKey());
      assertThat(stored.get(e.getKey()).get("experience").asText()).isEqualTo(e.getValue());
    }
    for (var e : rewarded.entrySet()) {
      assertThat(stored.get(e.getKey()).get("visits").asInt()).as("rewards of %s", e.getKey()).isGreaterThanOrEqualTo(e.getValue().get());
    }
  }

  private Process start(Path keys) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), MemLoopCli.class.getName(),
        "serve", "--store", dir.resolve("store").toString(), "--keys", keys.toString(), "--port", "0", "--embedder", "hashing",
        "--no-mcp", "--lock-timeout", "30");
    pb.redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("serve.err").toFile()));
    return pb.start();
  }

  /** Reads the server's first line (it prints it once listening) and keeps draining its output. */
  private static String awaitServing(Process p) throws IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).as("the server's first line (stderr in serve.err)").isNotNull();
    Matcher m = SERVING.matcher(line);
    assertThat(m.find()).as(line).isTrue();
    Thread.ofVirtual().start(() -> {
      try {
        out.transferTo(java.io.Writer.nullWriter());
      } catch (IOException e) {
        // the process ended
      }
    });
    return m.group(1);
  }

  private JsonNode post(String base, String route, String body) throws IOException {
    return send(HttpRequest.newBuilder(URI.create(base + "/v1/namespaces/team-a" + route))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private JsonNode get(String base, String route) throws IOException {
    JsonNode n = send(HttpRequest.newBuilder(URI.create(base + "/v1/namespaces/team-a" + route)).GET());
    assertThat(n).isNotNull();
    return n;
  }

  /** The answer's JSON on 2xx; null when the server is gone; fails on any other answer. */
  private JsonNode send(HttpRequest.Builder b) throws IOException {
    try {
      HttpResponse<String> r = http.send(b.header("Authorization", "Bearer " + key).timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
      return Json.MAPPER.readTree(r.body());
    } catch (java.net.ConnectException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
