package io.memloop.server;

import java.util.Map;

/**
 * The decision report of a namespace ({@code GET /v1/namespaces/{ns}/report}): off-policy evaluation of other
 * configurations on the server's event log, made by whoever has the log ({@code memloop serve --event-log} uses
 * {@code memloop-history}). The server caches each namespace's answer for a minute.
 */
@FunctionalInterface
public interface DecisionReports {
  /**
   * The report as a JSON object: {@code {"available": true, ...}}, or {@code {"available": false, "reason"}} when
   * the log holds nothing to evaluate for {@code namespace} yet. Called on a request thread; may take seconds.
   */
  Map<String, Object> report(String namespace);
}
