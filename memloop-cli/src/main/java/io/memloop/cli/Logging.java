package io.memloop.cli;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Logging of the command line: the SLF4J simple binding (configured by {@code simplelogger.properties}:
 * warnings and errors on stderr) and java.util.logging (Lucene) routed through it, so one level
 * governs both. {@code MEMLOOP_LOG_LEVEL} overrides the level of every logger (but the JDK's
 * stack trace of every exit at debug level). The library modules
 * log through the SLF4J API only; applications embedding MemLoop bring their own binding.
 */
final class Logging {
  static final String ENV = "MEMLOOP_LOG_LEVEL";
  private static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warn", "error", "off");

  /** Held: java.util.logging keeps loggers weakly, and a level set on a dropped one is lost. */
  private static final java.util.logging.Logger LUCENE_VECTORIZATION =
      java.util.logging.Logger.getLogger("org.apache.lucene.internal.vectorization.VectorizationProvider");

  private Logging() {}

  /**
   * Applies {@code level} (the value of {@link #ENV}, or null for the defaults) before the first
   * logger is created.
   *
   * @throws IllegalArgumentException naming the variable when the level is not one of {@link #LEVELS}
   */
  static void configure(String level) {
    if (level != null && !level.isBlank()) {
      String l = level.strip().toLowerCase(Locale.ROOT);
      if (!LEVELS.contains(l)) {
        throw new IllegalArgumentException(
            ENV + ": '" + level.strip() + "' is not a level; use one of trace, debug, info, warn, error, off");
      }
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", l);
      for (String quietByDefault : List.of("org.apache.lucene", "ai.djl", "org.apache.solr.common.cloud.SolrZkClient", "org.apache.zookeeper")) {
        System.setProperty("org.slf4j.simpleLogger.log." + quietByDefault, l);
      }
      if (l.equals("debug") || l.equals("trace")) {
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.FINEST);
        // the store keeps Lucene's Vector API notice quiet unless its logger was configured: this is configuring it
        LUCENE_VECTORIZATION.setLevel(java.util.logging.Level.FINEST);
      }
    }
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
  }
}
