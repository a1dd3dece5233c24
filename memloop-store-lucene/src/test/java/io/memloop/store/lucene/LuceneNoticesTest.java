package io.memloop.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Lucene's Vector API notice stays off an embedding application's stderr unless it configured that logger. */
class LuceneNoticesTest {
  @Test
  void openingTheStoreClassQuietsLucenesVectorApiNotice() throws Exception {
    Class.forName(LuceneStore.class.getName(), true, getClass().getClassLoader());
    Logger logger = Logger.getLogger(LuceneNotices.VECTORIZATION_LOGGER);
    assertThat(logger.getLevel()).isEqualTo(Level.SEVERE);
    assertThat(logger.isLoggable(Level.WARNING)).as("the notice is a WARNING").isFalse();
  }
}
