package io.memloop.jmh;

import io.memloop.ClusteredVectors;
import io.memloop.server.Json;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.Histogram;

/**
 * Open-loop load on a running {@code memloop serve}, from its own process: at each offered rate, episodes
 * (retrieve, then reward that retrieval) start on a fixed schedule whether or not earlier ones finished, so
 * a slow server shows up as latency (measured from each episode's scheduled start, free of coordinated
 * omission), not as a lower offered rate. Prints, per rate: offered and achieved episodes/s, errors, and
 * episode latency p50 / p90 / p99 / max.
 *
 * <pre>
 * java -cp memloop-jmh/target/benchmarks.jar io.memloop.jmh.LoadGenerator URL KEY NAMESPACE http|mcp|floor SECONDS RATE...
 * </pre>
 * With the environment variable {@code MEMLOOP_SERVER_PID} set to the server's process id (same machine), each
 * window also reports the server's CPU time (user + system, from {@code /proc/PID/stat}) per achieved episode; every
 * window reports the generator's own CPU time per achieved episode (it shares the machine with the server).
 * {@code http} sends caller-supplied 384-d embeddings (queries near the clusters of a store built by
 * {@link BuildStore}); {@code mcp} calls the tools with task texts (the server embeds them) over a pool
 * of 64 MCP sessions; {@code floor} two {@code GET /v1/health} (the HTTP path's own cost, {@link FloorEpisode}).
 */
public final class LoadGenerator {
  private LoadGenerator() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 6) {
      System.err.println("usage: LoadGenerator URL KEY NAMESPACE http|mcp|floor SECONDS RATE...");
      System.exit(2);
    }
    String url = args[0];
    String key = args[1];
    String ns = args[2];
    boolean mcp = args[3].equals("mcp");
    int seconds = Integer.parseInt(args[4]);
    Episode episode = mcp ? new McpEpisode(url, key, ns)
        : args[3].equals("floor") ? new FloorEpisode(url) : new HttpEpisode(url, key, ns);
    String pid = System.getenv("MEMLOOP_SERVER_PID");
    System.out.printf(Locale.ROOT, "%-9s %9s %9s %7s %8s %8s %8s %8s%s%n",
        "transport", "offered/s", "achieved/s", "errors", "p50 ms", "p90 ms", "p99 ms", "max ms",
        (pid == null ? "" : "  cpu ms/episode") + "  generator cpu ms/episode");
    run(episode, 200, 3, false); // warm-up
    for (int i = 5; i < args.length; i++) {
      int rate = Integer.parseInt(args[i]);
      long cpuBefore = cpuTicks(pid);
      long ownBefore = ownCpuNanos();
      Result r = run(episode, rate, seconds, true);
      long cpuAfter = cpuTicks(pid);
      double episodes = r.achieved() * seconds;
      String cpu = (pid == null ? ""
          : String.format(Locale.ROOT, "  %14.3f", (cpuAfter - cpuBefore) * 1000.0 / TICKS_PER_SECOND / episodes))
          + String.format(Locale.ROOT, "  %24.3f", (ownCpuNanos() - ownBefore) / 1e6 / episodes);
      System.out.printf(Locale.ROOT, "%-9s %9d %9.0f %7d %8.2f %8.2f %8.2f %8.1f%s%n", args[3], rate, r.achieved(), r.errors(),
          r.h().getValueAtPercentile(50) / 1e3, r.h().getValueAtPercentile(90) / 1e3, r.h().getValueAtPercentile(99) / 1e3,
          r.h().getMaxValue() / 1e3, cpu);
    }
    episode.close();
    System.exit(0);
  }

  /** This generator's own CPU time (user + system, every thread), in nanoseconds. */
  static long ownCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Linux's USER_HZ: /proc reports CPU times in these ticks (100 on every mainstream kernel build). */
  private static final double TICKS_PER_SECOND = 100;

  /** The process's user + system CPU time in clock ticks ({@code /proc/PID/stat} fields 14 and 15), 0 without a pid. */
  static long cpuTicks(String pid) throws java.io.IOException {
    if (pid == null) {
      return 0;
    }
    String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", pid, "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // field 3 onwards; the name may hold spaces
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  interface Episode extends AutoCloseable {
    /** One retrieve + reward; false on an error answer. */
    boolean run(long n) throws Exception;

    @Override
    default void close() {}
  }

  record Result(double achieved, long errors, Histogram h) {}

  static Result run(Episode episode, int rate, int seconds, boolean measure) throws InterruptedException {
    Recorder recorder = new Recorder(3);
    AtomicLong errors = new AtomicLong();
    AtomicLong done = new AtomicLong();
    long intervalNanos = 1_000_000_000L / rate;
    long total = (long) rate * seconds;
    long start = System.nanoTime() + 10_000_000L;
    try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
      for (long i = 0; i < total; i++) {
        long scheduled = start + i * intervalNanos;
        long wait;
        while ((wait = scheduled - System.nanoTime()) > 0) {
          LockSupport.parkNanos(wait);
        }
        long n = i;
        workers.submit(() -> {
          try {
            if (!episode.run(n)) {
              errors.incrementAndGet();
            }
          } catch (Exception e) {
            errors.incrementAndGet();
          }
          recorder.recordValue(Math.max(1, (System.nanoTime() - scheduled) / 1000)); // microseconds
          done.incrementAndGet();
          return null;
        });
      }
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    return new Result(done.get() / elapsed, errors.get(), recorder.getIntervalHistogram());
  }

  /**
   * retrieve with an embedding, then reward, over HTTP/JSON, with Jetty's HTTP client (bodies prepared up front, the
   * retrieval id read from the answer without parsing it whole): the generator shares the server's cores, so it
   * should cost as little as it can.
   */
  static final class HttpEpisode implements Episode {
    private static final String ID_FIELD = "\"retrievalId\":\"";
    private final org.eclipse.jetty.client.HttpClient http = startClient();
    private final java.net.URI retrieve;
    private final java.net.URI rewards;
    private final String auth;
    private final byte[][] bodies;

    HttpEpisode(String url, String key, String ns) throws Exception {
      String base = url + "/v1/namespaces/" + ns;
      this.retrieve = java.net.URI.create(base + "/retrieve");
      this.rewards = java.net.URI.create(base + "/rewards");
      this.auth = "Bearer " + key;
      ClusteredVectors vectors = new ClusteredVectors(Stores.DEFAULT_SEED ^ 0x10ADL, 100_000);
      bodies = new byte[4096][];
      for (int i = 0; i < bodies.length; i++) {
        StringBuilder sb = new StringBuilder("{\"embedding\":[");
        float[] q = vectors.query(i);
        for (int d = 0; d < q.length; d++) {
          sb.append(d == 0 ? "" : ",").append(q[d]);
        }
        bodies[i] = sb.append("]}").toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      }
    }

    @Override
    public boolean run(long n) throws Exception {
      org.eclipse.jetty.client.ContentResponse r = post(retrieve, bodies[(int) (n % bodies.length)]);
      if (r.getStatus() != 200) {
        return false;
      }
      String body = r.getContentAsString();
      int at = body.indexOf(ID_FIELD);
      if (at < 0) {
        return false;
      }
      int from = at + ID_FIELD.length();
      String id = body.substring(from, body.indexOf('"', from));
      byte[] reward = ("{\"retrievalId\":\"" + id + "\",\"reward\":" + ((n & 1) == 0 ? 1 : -1) + "}")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      return post(rewards, reward).getStatus() == 200;
    }

    private org.eclipse.jetty.client.ContentResponse post(java.net.URI uri, byte[] body) throws Exception {
      return http.POST(uri).headers(h -> h.put("Authorization", auth))
          .body(new org.eclipse.jetty.client.BytesRequestContent("application/json", body)).send();
    }

    @Override
    public void close() {
      stopClient(http);
    }
  }

  /** Jetty's HTTP client as both HTTP episodes use it: many connections, a deep queue, no timer per request. */
  static org.eclipse.jetty.client.HttpClient startClient() {
    org.eclipse.jetty.client.HttpClient http = new org.eclipse.jetty.client.HttpClient();
    http.setMaxConnectionsPerDestination(512);
    http.setMaxRequestsQueuedPerDestination(1 << 16);
    http.setIdleTimeout(30_000); // instead of a timer per request: a stalled connection fails its requests
    try {
      http.start();
    } catch (Exception e) {
      throw new IllegalStateException("starting the HTTP client", e);
    }
    return http;
  }

  static void stopClient(org.eclipse.jetty.client.HttpClient http) {
    try {
      http.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping the HTTP client", e);
    }
  }

  /**
   * The floor of the HTTP path: two {@code GET /v1/health} per "episode", on the same client as {@link HttpEpisode},
   * so that the server's CPU per episode is what two requests cost through Jetty, Javalin, the request checks and the
   * kernel's loopback with no store work, no body and no authentication.
   */
  static final class FloorEpisode implements Episode {
    private final org.eclipse.jetty.client.HttpClient http = startClient();
    private final java.net.URI health;

    FloorEpisode(String url) {
      this.health = java.net.URI.create(url + "/v1/health");
    }

    @Override
    public boolean run(long n) throws Exception {
      return http.GET(health).getStatus() == 200 && http.GET(health).getStatus() == 200;
    }

    @Override
    public void close() {
      stopClient(http);
    }
  }

  /** retrieve_experiences then report_outcome, over MCP streamable HTTP, on a pool of sessions. */
  static final class McpEpisode implements Episode {
    private static final int SESSIONS = 64;
    private final BlockingQueue<McpSyncClient> pool = new ArrayBlockingQueue<>(SESSIONS);
    private final List<McpSyncClient> all = new ArrayList<>();

    McpEpisode(String url, String key, String ns) {
      for (int i = 0; i < SESSIONS; i++) {
        McpSyncClient c = McpClient.sync(HttpClientStreamableHttpTransport.builder(url).endpoint("/mcp")
                .jsonMapper(new JacksonMcpJsonMapper(Json.MAPPER))
                .httpRequestCustomizer((b, method, uri, body, context) -> b.header("Authorization", "Bearer " + key))
                .build())
            .requestTimeout(Duration.ofSeconds(30)).build();
        c.initialize();
        all.add(c);
        pool.add(c);
      }
    }

    @Override
    public boolean run(long n) throws Exception {
      McpSyncClient c = pool.poll(30, TimeUnit.SECONDS);
      if (c == null) {
        return false;
      }
      try {
        CallToolResult r = c.callTool(new CallToolRequest("retrieve_experiences", Map.of("task", "restart service " + (n % 500) + " in cluster " + (n % 7))));
        if (Boolean.TRUE.equals(r.isError())) {
          return false;
        }
        Object id = ((Map<?, ?>) r.structuredContent()).get("retrievalId");
        CallToolResult w = c.callTool(new CallToolRequest("report_outcome", Map.of("retrievalId", id, "outcome", (n & 1) == 0 ? "success" : "failure")));
        return !Boolean.TRUE.equals(w.isError());
      } finally {
        pool.add(c);
      }
    }

    @Override
    public void close() {
      all.forEach(McpSyncClient::closeGracefully);
    }
  }

}
