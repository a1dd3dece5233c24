package io.memloop.bench.strategy;

import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Task;

/**
 * One strategy's memory for one run: fresh at the start, discarded at the end. Used by one thread.
 */
public interface MemoryRun extends AutoCloseable {

  /** Stores an experience that predates the run, with no retrieval to reward. */
  void preload(PriorExperience prior, float[] intentEmbedding);

  /** Experiences to show for {@code task}, whose intent embeds to {@code intentEmbedding}. */
  Recall recall(Task task, float[] intentEmbedding);

  /** Learns from the episode that followed {@code recall}: reward what was shown, store the experience. */
  void learn(Recall recall, float[] intentEmbedding, Episode episode);

  /** Memories held now. */
  long memoryCount();

  /** Utility Q of every memory held now, by memory id (empty for strategies without utilities). */
  java.util.Map<String, Double> utilities();

  @Override
  void close();
}
