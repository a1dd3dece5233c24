package io.memloop.events;

import io.memloop.Intent;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** {@link EventSink#all}: each event to every sink, in order; the first failure thrown after all were called. */
final class Tee implements EventSink {
  private final EventSink[] sinks;

  Tee(EventSink[] sinks) {
    this.sinks = sinks;
  }

  private void each(Consumer<EventSink> call) {
    RuntimeException failure = null;
    for (EventSink s : sinks) {
      try {
        call.accept(s);
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public void configured(String namespace, Instant at, MemLoopConfig config) {
    each(s -> s.configured(namespace, at, config));
  }

  @Override
  public void configured(String namespace, Instant at, MemLoopConfig config, int embedderBlocks) {
    each(s -> s.configured(namespace, at, config, embedderBlocks));
  }

  @Override
  public void retrieved(String namespace, Instant at, Intent intent, float[] embedding, Retrieval retrieval) {
    each(s -> s.retrieved(namespace, at, intent, embedding, retrieval));
  }

  @Override
  public void rewarded(String namespace, Instant at, RewardResult result, @Nullable List<String> usedMemoryIds) {
    each(s -> s.rewarded(namespace, at, result, usedMemoryIds));
  }

  @Override
  public void remembered(String namespace, Instant at, Memory memory, boolean duplicate, @Nullable String retrievalId) {
    each(s -> s.remembered(namespace, at, memory, duplicate, retrievalId));
  }

  @Override
  public void rememberedAll(String namespace, Instant at, List<Memory> memories) {
    each(s -> s.rememberedAll(namespace, at, memories));
  }

  @Override
  public void edited(String namespace, Instant at, Memory memory) {
    each(s -> s.edited(namespace, at, memory));
  }

  @Override
  public void forgot(String namespace, Instant at, String memoryId) {
    each(s -> s.forgot(namespace, at, memoryId));
  }

  @Override
  public void close() {
    Exception failure = null;
    for (EventSink s : sinks) {
      try {
        s.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure != null) {
      throw new IllegalStateException("closing an event sink failed: " + failure.getMessage(), failure);
    }
  }
}
