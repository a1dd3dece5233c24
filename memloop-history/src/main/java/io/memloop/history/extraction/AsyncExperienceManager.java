package io.memloop.history.extraction;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Extraction off the agent's path: {@link #submit} queues a finished trajectory and returns at once; worker
 * threads take up to {@code batchSize} queued trajectories at a time, extract each (an LLM call, with the
 * extractor's own timeout, retries and raw-trajectory fallback) and remember the result. The queue is
 * bounded: when it is full, {@code submit} says so ({@link Submission#QUEUE_FULL}) instead of waiting or
 * dropping silently, and {@link #stats()} counts it — that is the back-pressure to watch.
 *
 * <p>{@link #close()} stops accepting, lets the workers finish what is queued (up to a timeout) and reports
 * what it could not.
 */
public final class AsyncExperienceManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AsyncExperienceManager.class);

  /** What {@link #submit} did with a trajectory. */
  public enum Submission { ACCEPTED, QUEUE_FULL, CLOSED }

  /** Counters since start. */
  public record Stats(long accepted, long rejectedFull, long distilled, long fallbacks, long failed, int queued,
      int maxQueued, long inFlight) {}

  private record Job(String namespace, Trajectory trajectory, @org.jspecify.annotations.Nullable String retrievalId) {}

  private final MemLoop loop;
  private final ExperienceExtractor extractor;
  private final BlockingQueue<Job> queue;
  private final int batchSize;
  private final ExecutorService workers;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong distilled = new AtomicLong();
  private final AtomicLong fallbacks = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  /** Accepted and not yet processed (queued or being extracted). */
  private final AtomicLong pending = new AtomicLong();
  private volatile int maxQueued;
  private volatile boolean closed;
  private final ReentrantLock idleLock = new ReentrantLock();
  private final Condition idle = idleLock.newCondition();

  /**
   * @param capacity trajectories that may wait (≥ 1)
   * @param batchSize trajectories a worker takes at a time (≥ 1)
   * @param threads worker threads (≥ 1; extraction is I/O-bound: a few per model endpoint)
   */
  public AsyncExperienceManager(MemLoop loop, ExperienceExtractor extractor, int capacity, int batchSize, int threads) {
    this.loop = Objects.requireNonNull(loop, "loop");
    this.extractor = Objects.requireNonNull(extractor, "extractor");
    if (capacity < 1 || batchSize < 1 || threads < 1) {
      throw MemLoopException.invalid("capacity", "capacity, batch size and threads must be at least 1");
    }
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.batchSize = batchSize;
    this.workers = Executors.newFixedThreadPool(threads, Thread.ofPlatform().daemon().name("memloop-extractor-", 0).factory());
    for (int i = 0; i < threads; i++) {
      workers.execute(this::work);
    }
  }

  /** Queues {@code trajectory} for extraction into {@code namespace}; never blocks. */
  public Submission submit(String namespace, Trajectory trajectory) {
    return submit(namespace, trajectory, null);
  }

  /**
   * As {@link #submit(String, Trajectory)}, naming the retrieval of the episode the trajectory comes from (the
   * remembered experience carries the link into the event log).
   */
  public Submission submit(String namespace, Trajectory trajectory, @org.jspecify.annotations.Nullable String retrievalId) {
    io.memloop.Checks.requireNamespace(namespace);
    if (retrievalId != null && retrievalId.isBlank()) {
      throw io.memloop.MemLoopException.invalid("retrievalId", "must not be blank");
    }
    Objects.requireNonNull(trajectory, "trajectory");
    if (closed) {
      return Submission.CLOSED;
    }
    pending.incrementAndGet(); // before the offer, so that awaitIdle never sees an accepted job as done
    if (!queue.offer(new Job(namespace, trajectory, retrievalId))) {
      pending.decrementAndGet();
      rejected.incrementAndGet();
      return Submission.QUEUE_FULL;
    }
    accepted.incrementAndGet();
    int q = queue.size();
    if (q > maxQueued) {
      maxQueued = q; // a racy maximum is fine for a gauge
    }
    return Submission.ACCEPTED;
  }

  public Stats stats() {
    int queued = queue.size();
    return new Stats(accepted.get(), rejected.get(), distilled.get(), fallbacks.get(), failed.get(), queued, maxQueued,
        Math.max(0, pending.get() - queued));
  }

  /** Waits until nothing is queued or being extracted; false if {@code timeout} passed first. */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    idleLock.lock();
    try {
      while (pending.get() > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        idle.awaitNanos(left);
      }
      return true;
    } finally {
      idleLock.unlock();
    }
  }

  private void work() {
    List<Job> batch = new ArrayList<>(batchSize);
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Job first = queue.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) {
          if (closed) {
            return;
          }
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, batchSize - 1);
        for (Job j : batch) {
          process(j);
          pending.decrementAndGet();
        }
        batch.clear();
        signalIfIdle();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void process(Job j) {
    try {
      ExperienceExtractor.Extraction x = extractor.extract(j.trajectory());
      (x.distilled() ? distilled : fallbacks).incrementAndGet();
      loop.remember(j.namespace(), Intent.ofText(j.trajectory().task()), x.experience(), j.trajectory().outcome(), j.retrievalId());
    } catch (RuntimeException e) {
      failed.incrementAndGet();
      LOG.warn("event=extraction_failed namespace={} message=\"{}\"", j.namespace(), e.getMessage());
    }
  }

  private void signalIfIdle() {
    idleLock.lock();
    try {
      idle.signalAll();
    } finally {
      idleLock.unlock();
    }
  }

  /** Stops accepting and lets the workers finish the queue, up to {@code timeout}; the trajectories left unextracted. */
  public int close(Duration timeout) throws InterruptedException {
    closed = true;
    awaitIdle(timeout);
    workers.shutdownNow();
    workers.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS);
    int left = queue.size();
    if (left > 0) {
      LOG.warn("event=extraction_abandoned trajectories={}", left);
    }
    return left;
  }

  @Override
  public void close() {
    try {
      close(Duration.ofSeconds(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
