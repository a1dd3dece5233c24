package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import java.util.Comparator;
import java.util.List;

/**
 * A strong, dumb baseline: the {@code k2} most recent memories of the {@code k1} intent groups
 * nearest to the task (groups and gate as the engine forms them). It adapts to a changed world as fast
 * as anything can, and learns nothing. Ties cannot occur: every memory has its own store time.
 */
public final class RecentStrategy implements Strategy {
  private static final MemLoopConfig SHARED = MemLoopConfig.preset(Preset.MEMRL); // same k1, k2, δ, merge

  @Override
  public String name() {
    return "recent";
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    return new PlainRun(SHARED.mergeThreshold(), (memory, query, task) -> {
      List<FlatMemory.Scored> pool = memory.nearestGroups(query, SHARED.k1(), SHARED.similarityThreshold());
      return new PlainRun.Selection(
          pool.stream()
              .sorted(Comparator.comparingLong(FlatMemory.Scored::order).reversed())
              .limit(SHARED.k2())
              .map(FlatMemory.Scored::memory)
              .toList(),
          pool.size());
    });
  }
}
