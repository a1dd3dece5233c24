package io.memloop;

import java.util.Objects;

/**
 * The answer to {@link MemLoop#endEpisode}: what the episode's reward changed and the memory its experience
 * became (or the existing memory it duplicates), both durable on return.
 */
public record EpisodeEnd(RewardResult reward, Memory memory) {
  public EpisodeEnd {
    Objects.requireNonNull(reward, "reward");
    Objects.requireNonNull(memory, "memory");
  }
}
