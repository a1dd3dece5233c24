package io.memloop.store.lucene;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.jspecify.annotations.Nullable;

/**
 * Lucene's concurrent merge scheduler, except that a failed background merge is recorded instead of
 * thrown from the merge thread (where the JVM's default handler prints its stack trace to stderr: 60
 * lines per failure on a full disk). A failed merge loses nothing: the segments it was merging stay in
 * use, and the log still holds every acknowledged write. The failure is reported, once, by the store's
 * next call ({@link #take}), as one STORE_UNAVAILABLE exception.
 *
 * <p>Thread safety: merge threads record, callers take; the first failure not yet taken is kept.
 */
final class MergeFailures extends ConcurrentMergeScheduler {
  private final AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();

  @Override
  protected void handleMergeException(Throwable exc) {
    failure.compareAndSet(null, exc);
  }

  /** The first background merge failure since the last call, or null; clears it. */
  @Nullable Throwable take() {
    return failure.getAndSet(null);
  }
}
