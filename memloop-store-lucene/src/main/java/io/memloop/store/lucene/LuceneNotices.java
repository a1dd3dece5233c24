package io.memloop.store.lucene;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps Lucene's start-up notice about the JDK's Vector API ("Java vector incubator module is not readable
 * ...", a java.util.logging warning printed on the first vector search of every process) off the stderr of
 * applications that embed the store, unless their logging configuration sets a level for that logger
 * themselves. The notice is advice about JVM flags, not a problem of the store (README: the embedded store).
 */
final class LuceneNotices {
  static final String VECTORIZATION_LOGGER = "org.apache.lucene.internal.vectorization.VectorizationProvider";

  /** Held so that the level set here is not lost when java.util.logging drops unreferenced loggers. */
  private static final Logger VECTORIZATION = Logger.getLogger(VECTORIZATION_LOGGER);

  static {
    if (VECTORIZATION.getLevel() == null) {
      VECTORIZATION.setLevel(Level.SEVERE);
    }
  }

  private LuceneNotices() {}

  /** Applies the above once, before Lucene's vector code is first loaded. */
  static void apply() {
    // the static initializer does the work
  }
}
