package io.memloop.server;

import io.memloop.store.MemoryStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Prometheus metrics (Micrometer): request latency histograms per route and status, retrievals, rewards,
 * remembered experiences, the store's size on disk, and the JVM's own. {@code /metrics} is served without a
 * key, so namespace names (and per-namespace counts and memory gauges) appear only when asked for
 * ({@code --metrics-namespaces}); otherwise the retrieval, reward and remember series are totals over all
 * namespaces. Per-namespace series appear once a namespace is used through this server.
 */
final class Metrics implements AutoCloseable {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final MemoryStore store;
  private final ConcurrentHashMap<String, NamespaceMeters> namespaces = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<RequestKey, Timer> requestTimers = new ConcurrentHashMap<>();
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final boolean namespaceLabels;

  /** @param namespaceLabels whether series carry the namespace's name (and each namespace gets its own gauges) */
  Metrics(MemoryStore store, @Nullable Path storeDirectory, boolean namespaceLabels) {
    this.store = store;
    this.namespaceLabels = namespaceLabels;
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    gc.bindTo(registry);
    Timer fsync = Timer.builder("memloop.wal.fsync")
        .description("Duration of each group commit's write and fsync of the store's log")
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(20_000))
        .maximumExpectedValue(Duration.ofSeconds(5))
        .register(registry);
    store.onDurableSync(nanos -> fsync.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS));
    if (storeDirectory != null) {
      Gauge.builder("memloop.store.size", () -> directorySize(storeDirectory))
          .baseUnit("bytes").description("Bytes the store's files take on disk").register(registry);
    }
  }

  /** Records one HTTP request (or MCP tool call, with {@code route} = the tool's name). */
  void request(String transport, String route, String method, int status, long nanos) {
    requestTimers.computeIfAbsent(new RequestKey(transport, route, method, status), k -> Timer.builder("memloop.requests")
            .description("Request latency by transport, route and status")
            .tags("transport", k.transport(), "route", k.route(), "method", k.method(), "status", Integer.toString(k.status()))
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(50_000))
            .maximumExpectedValue(Duration.ofSeconds(10))
            .register(registry))
        .record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  void retrieved(String ns, int selected) {
    NamespaceMeters m = namespace(ns);
    m.retrievals().increment();
    m.selected().record(selected);
  }

  void rewarded(String ns, double reward) {
    NamespaceMeters m = namespace(ns);
    m.rewards().increment();
    m.reward().record(reward);
  }

  void remembered(String ns) {
    namespace(ns).remembered().increment();
  }

  private record RequestKey(String transport, String route, String method, int status) {}

  /** A namespace's meters, registered once (the lookup by name and tags is not repeated per request). */
  private record NamespaceMeters(Counter retrievals, DistributionSummary selected, Counter rewards,
      DistributionSummary reward, Counter remembered) {}

  /** The meters of {@code ns}, with its size gauges, registered on first use. */
  private NamespaceMeters namespace(String ns) {
    if (!namespaceLabels) {
      return namespaces.computeIfAbsent("", n -> new NamespaceMeters(
          Counter.builder("memloop.retrievals").register(registry),
          DistributionSummary.builder("memloop.retrieval.selected").register(registry),
          Counter.builder("memloop.rewards").register(registry),
          DistributionSummary.builder("memloop.reward").register(registry),
          Counter.builder("memloop.remembered").register(registry)));
    }
    return namespaces.computeIfAbsent(ns, n -> {
      Gauge.builder("memloop.memories", () -> store.counts(n, Instant.now()).memories())
          .tag("namespace", n).description("Memories stored in the namespace").register(registry);
      Gauge.builder("memloop.retrievals.pending", () -> store.counts(n, Instant.now()).pendingRetrievals())
          .tag("namespace", n).description("Retrievals awaiting a reward").register(registry);
      return new NamespaceMeters(
          Counter.builder("memloop.retrievals").tag("namespace", n).register(registry),
          DistributionSummary.builder("memloop.retrieval.selected").tag("namespace", n).register(registry),
          Counter.builder("memloop.rewards").tag("namespace", n).register(registry),
          DistributionSummary.builder("memloop.reward").tag("namespace", n).register(registry),
          Counter.builder("memloop.remembered").tag("namespace", n).register(registry));
    });
  }

  /** The Prometheus text exposition. */
  String scrape() {
    return registry.scrape();
  }

  private static double directorySize(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          return 0; // removed while walking (a checkpoint replacing files)
        }
      }).sum();
    } catch (IOException | UncheckedIOException e) {
      return Double.NaN;
    }
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
