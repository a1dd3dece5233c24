package io.memloop.bench.strategy;

import io.memloop.Memory;
import io.memloop.bench.Episode;
import io.memloop.bench.Task;
import java.util.List;
import java.util.function.Function;

/**
 * A memory that plays an episode itself instead of retrieving once: it may try several views of its memory, each
 * with the episode's own random numbers replayed from the start, and keep the best. Only the oracle does this (the
 * ceiling of the benchmark); the loops call {@link #play} instead of {@link #recall} / {@link #learn} for it.
 */
public interface HindsightRun extends MemoryRun {

  /**
   * Plays one episode.
   *
   * @param seen the task as strategies see it
   * @param intentEmbedding its intent's embedding
   * @param attempt the frozen policy's attempt with the experiences shown; every call replays the same random
   *     numbers, so two calls with the same list give the same episode
   * @param learn whether to learn from the episode (false in the frozen transfer phase)
   * @return the view kept and the episode it led to
   */
  Played play(Task seen, float[] intentEmbedding, Function<List<Memory>, Episode> attempt, boolean learn);

  /** The view a {@link HindsightRun} kept for one episode, and that episode. */
  record Played(Recall recall, Episode episode) {}
}
