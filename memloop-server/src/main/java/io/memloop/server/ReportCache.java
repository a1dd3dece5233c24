package io.memloop.server;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Each namespace's decision report, made at most once per {@link #TTL}: concurrent requests for one namespace
 * wait for one computation (per-namespace lock), other namespaces do not wait.
 */
final class ReportCache {
  static final Duration TTL = Duration.ofSeconds(60);
  static final Map<String, Object> NOT_AVAILABLE =
      Map.of("available", false, "reason", "the server was started without --event-log");

  private record Made(Instant at, Map<String, Object> report) {}

  private final @Nullable DecisionReports source;
  private final InstantSource clock;
  private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Made> made = new ConcurrentHashMap<>();

  ReportCache(@Nullable DecisionReports source, InstantSource clock) {
    this.source = source;
    this.clock = clock;
  }

  Map<String, Object> report(String namespace) {
    if (source == null) {
      return NOT_AVAILABLE;
    }
    synchronized (locks.computeIfAbsent(namespace, k -> new Object())) {
      Made m = made.get(namespace);
      Instant now = clock.instant();
      if (m == null || !now.isBefore(m.at().plus(TTL))) {
        m = new Made(now, java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(source.report(namespace))));
        made.put(namespace, m);
      }
      return m.report();
    }
  }
}
