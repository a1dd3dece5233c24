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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Prometheus metrics (Micrometer): request latency histograms per route and status, retrievals, rewards,
 * remembered experiences and memories per namespace, the store's size on disk, and the JVM's own.
 * Per-namespace series appear once a namespace is used through this server.
 */
final class Metrics implements AutoCloseable {
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final MemoryStore store;
  private final Set<String> namespaces = ConcurrentHashMap.newKeySet();
  private final JvmGcMetrics gc = new JvmGcMetrics();

  Metrics(MemoryStore store, @Nullable Path storeDirectory) {
    this.store = store;
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
    Timer.builder("memloop.requests")
        .description("Request latency by transport, route and status")
        .tags("transport", transport, "route", route, "method", method, "status", Integer.toString(status))
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(0).plusNanos(50_000))
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(registry)
        .record(Duration.ofNanos(nanos));
  }

  void retrieved(String ns, int selected) {
    watch(ns);
    Counter.builder("memloop.retrievals").tag("namespace", ns).register(registry).increment();
    DistributionSummary.builder("memloop.retrieval.selected").tag("namespace", ns).register(registry).record(selected);
  }

  void rewarded(String ns, double reward) {
    watch(ns);
    Counter.builder("memloop.rewards").tag("namespace", ns).register(registry).increment();
    DistributionSummary.builder("memloop.reward").tag("namespace", ns).register(registry).record(reward);
  }

  void remembered(String ns) {
    watch(ns);
    Counter.builder("memloop.remembered").tag("namespace", ns).register(registry).increment();
  }

  /** Gauges of a namespace's size, registered on first use. */
  void watch(String ns) {
    if (namespaces.add(ns)) {
      Gauge.builder("memloop.memories", () -> store.counts(ns, Instant.now()).memories())
          .tag("namespace", ns).description("Memories stored in the namespace").register(registry);
      Gauge.builder("memloop.retrievals.pending", () -> store.counts(ns, Instant.now()).pendingRetrievals())
          .tag("namespace", ns).description("Retrievals awaiting a reward").register(registry);
    }
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
