package io.memloop.store.lucene;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Makes writes that were appended without waiting (saved retrievals) durable within a bounded delay:
 * the first such append after a sync schedules one sync {@code delayNanos} later, which covers every
 * record appended until it runs. Any synced write meanwhile (an insert, a reward, a delete) covers
 * them earlier, since the log is written in order; the scheduled sync then finds nothing to do.
 *
 * <p>Thread safety: {@link #appended()} may be called concurrently. Invariant: while some append is not
 * covered by a finished sync, {@code scheduled} is true and a sync is scheduled that reads the log
 * position only after it cleared the flag, so it covers every append that saw the flag set.
 */
final class DeferredSync {
  /** Runs a task after a delay; the store's is one daemon thread, tests drive it by hand. */
  interface Scheduler {
    void schedule(Runnable task, long delayNanos);

    /** Drops pending tasks; called when the store closes or crashes. */
    void shutdown();
  }

  private final long delayNanos;
  private final Scheduler scheduler;
  private final LongSupplier appendedLsn;
  private final LongConsumer awaitDurable;
  private final AtomicBoolean scheduled = new AtomicBoolean();

  /**
   * @param appendedLsn the log's end
   * @param awaitDurable returns once the log is durable up to the given LSN (leading a sync if none runs)
   */
  DeferredSync(long delayNanos, Scheduler scheduler, LongSupplier appendedLsn, LongConsumer awaitDurable) {
    this.delayNanos = delayNanos;
    this.scheduler = scheduler;
    this.appendedLsn = appendedLsn;
    this.awaitDurable = awaitDurable;
  }

  /** Called after an append that nobody waits for. */
  void appended() {
    if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
      scheduler.schedule(this::sync, delayNanos);
    }
  }

  private void sync() {
    scheduled.set(false);
    try {
      awaitDurable.accept(appendedLsn.getAsLong());
    } catch (RuntimeException e) {
      // the store is closed, or has failed and says so on every later call; nothing to report here
    }
  }

  void shutdown() {
    scheduler.shutdown();
  }

  /** The production scheduler: one named daemon thread per store. */
  static Scheduler thread(String name) {
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    return new Scheduler() {
      @Override
      public void schedule(Runnable task, long delay) {
        try {
          executor.schedule(task, delay, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
          // the store closed (a clean close syncs everything) or crashed (nothing more may be written)
        }
      }

      @Override
      public void shutdown() {
        // drops the scheduled sync; no interrupt, which would close the log's channel mid-write
        executor.shutdown();
      }
    };
  }
}
