package io.memloop.store.lucene;

import io.memloop.MemLoopException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Tuning of a {@link LuceneStore}; the defaults suit stores from a few to millions of memories.
 *
 * @param commitEveryInserts inserts between Lucene commits. Commits are lazy because the log already
 *     makes inserts durable; a larger value means fewer, bigger commits and more log to re-index after
 *     a crash.
 * @param refreshEveryInserts inserts between Lucene searcher refreshes. Until a refresh, new intents
 *     are searched exactly from memory (the "tail"), so reads always see every acknowledged insert.
 * @param checkpointEveryBytes log bytes after which utilities and retrievals are checkpointed to a
 *     snapshot and older log segments deleted; bounds both disk use and replay time on open.
 * @param hnswMaxConn HNSW graph degree (Lucene's {@code M})
 * @param hnswBeamWidth HNSW construction beam width (Lucene's {@code efConstruction})
 * @param retrievalSyncDelayMillis longest time a saved retrieval stays in the log's buffer before a
 *     background sync makes it durable (sooner if any synced write follows it). 0 syncs every save
 *     before it returns, as inserts, rewards and deletes always are. A crash within this window (and
 *     before the next synced write) loses the retrieval; rewarding it then reports it unknown.
 * @param maxRetrievalsPerNamespace saved retrievals (rewarded or not) a namespace keeps; past it the
 *     oldest is evicted and a reward of it reports "unknown" (default 10,000)
 * @param maxRetrievalBytesPerNamespace estimated heap bytes of saved retrievals a namespace keeps,
 *     evicting the same way (default 16 MiB)
 * @param maxRetrievals saved retrievals all namespaces together keep; past it the oldest of the whole
 *     store is evicted, whatever its namespace (default 20,000)
 * @param maxRetrievalBytes estimated heap bytes of saved retrievals all namespaces together keep,
 *     evicting the same way (default 16 MiB). With these store-wide bounds a store opens in bounded
 *     memory however many retrievals were never rewarded and however many namespaces it has: measured,
 *     a store holding the default maximum opens in {@code -Xmx64m}
 * @param lockTimeout how long {@code open} waits while another process holds the store (default 0:
 *     fail at once); polled every 10 to 200 ms
 * @param clock only stamps the creation time in the store metadata
 * @param vectorFormat how the index's HNSW graph holds vectors ({@link VectorFormat}); null (the default) keeps
 *     an existing store's recorded format and creates new stores in {@link VectorFormat#DEFAULT}. A format other
 *     than an existing store's is recorded and the index rewritten in it once, while the store opens (a
 *     forced merge: about as long as building the graph again)
 * @param searchOversample how many times more HNSW candidates than a float graph needs a search asks for before
 *     rescoring them exactly (0, the default: the format's own, {@link VectorFormat}); more raises recall and
 *     cost
 */
public record LuceneStoreOptions(
    int commitEveryInserts,
    int refreshEveryInserts,
    long checkpointEveryBytes,
    int hnswMaxConn,
    int hnswBeamWidth,
    long retrievalSyncDelayMillis,
    int maxRetrievalsPerNamespace,
    long maxRetrievalBytesPerNamespace,
    int maxRetrievals,
    long maxRetrievalBytes,
    Duration lockTimeout,
    InstantSource clock,
    @Nullable VectorFormat vectorFormat,
    int searchOversample) {

  static final long MIN_CHECKPOINT_BYTES = 1 << 12;
  static final long MAX_CHECKPOINT_BYTES = 1L << 30;
  static final long MAX_RETRIEVAL_SYNC_DELAY_MILLIS = 10_000;
  static final Duration MAX_LOCK_TIMEOUT = Duration.ofHours(1);

  public LuceneStoreOptions {
    Objects.requireNonNull(clock, "clock");
    if (commitEveryInserts < 1) {
      throw MemLoopException.invalid("commitEveryInserts", "must be at least 1, got " + commitEveryInserts);
    }
    if (refreshEveryInserts < 1) {
      throw MemLoopException.invalid("refreshEveryInserts", "must be at least 1, got " + refreshEveryInserts);
    }
    if (checkpointEveryBytes < MIN_CHECKPOINT_BYTES || checkpointEveryBytes > MAX_CHECKPOINT_BYTES) {
      throw MemLoopException.invalid("checkpointEveryBytes", "must be in [" + MIN_CHECKPOINT_BYTES + ", "
          + MAX_CHECKPOINT_BYTES + "], got " + checkpointEveryBytes);
    }
    if (hnswMaxConn < 2 || hnswMaxConn > 512) {
      throw MemLoopException.invalid("hnswMaxConn", "must be in [2, 512], got " + hnswMaxConn);
    }
    if (hnswBeamWidth < hnswMaxConn || hnswBeamWidth > 3200) {
      throw MemLoopException.invalid("hnswBeamWidth", "must be in [hnswMaxConn=" + hnswMaxConn
          + ", 3200], got " + hnswBeamWidth);
    }
    if (maxRetrievalsPerNamespace < 1) {
      throw MemLoopException.invalid("maxRetrievalsPerNamespace", "must be at least 1, got " + maxRetrievalsPerNamespace);
    }
    if (maxRetrievalBytesPerNamespace < 1 << 10) {
      throw MemLoopException.invalid("maxRetrievalBytesPerNamespace", "must be at least 1024, got " + maxRetrievalBytesPerNamespace);
    }
    if (maxRetrievals < 1) {
      throw MemLoopException.invalid("maxRetrievals", "must be at least 1, got " + maxRetrievals);
    }
    if (maxRetrievalBytes < 1 << 10) {
      throw MemLoopException.invalid("maxRetrievalBytes", "must be at least 1024, got " + maxRetrievalBytes);
    }
    Objects.requireNonNull(lockTimeout, "lockTimeout");
    if (lockTimeout.isNegative() || lockTimeout.compareTo(MAX_LOCK_TIMEOUT) > 0) {
      throw MemLoopException.invalid("lockTimeout", "must be in [0, " + MAX_LOCK_TIMEOUT.toSeconds() + " s], got " + lockTimeout);
    }
    if (searchOversample < 0 || searchOversample > 64) {
      throw MemLoopException.invalid("searchOversample", "must be in [0, 64] (0: the vector format's own), got " + searchOversample);
    }
    if (retrievalSyncDelayMillis < 0 || retrievalSyncDelayMillis > MAX_RETRIEVAL_SYNC_DELAY_MILLIS) {
      throw MemLoopException.invalid("retrievalSyncDelayMillis", "must be in [0, " + MAX_RETRIEVAL_SYNC_DELAY_MILLIS
          + "], got " + retrievalSyncDelayMillis);
    }
  }

  public static LuceneStoreOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Fail-fast builder: {@link #build()} rejects out-of-range values naming the option. */
  public static final class Builder {
    private int commitEveryInserts = 10_000;
    private int refreshEveryInserts = 512;
    private long checkpointEveryBytes = 64L << 20;
    private int hnswMaxConn = 16;
    private int hnswBeamWidth = 100;
    private long retrievalSyncDelayMillis = 50;
    private int maxRetrievalsPerNamespace = 10_000;
    private long maxRetrievalBytesPerNamespace = 16L << 20;
    private int maxRetrievals = 20_000;
    private long maxRetrievalBytes = 16L << 20;
    private Duration lockTimeout = Duration.ZERO;
    private InstantSource clock = InstantSource.system();
    private @Nullable VectorFormat vectorFormat;
    private int searchOversample;

    private Builder() {}

    public Builder commitEveryInserts(int n) {
      this.commitEveryInserts = n;
      return this;
    }

    public Builder refreshEveryInserts(int n) {
      this.refreshEveryInserts = n;
      return this;
    }

    public Builder checkpointEveryBytes(long bytes) {
      this.checkpointEveryBytes = bytes;
      return this;
    }

    public Builder hnsw(int maxConn, int beamWidth) {
      this.hnswMaxConn = maxConn;
      this.hnswBeamWidth = beamWidth;
      return this;
    }

    public Builder retrievalSyncDelayMillis(long millis) {
      this.retrievalSyncDelayMillis = millis;
      return this;
    }

    /** Saved retrievals (rewarded or not) a namespace keeps at most; the oldest go first. */
    public Builder maxRetrievalsPerNamespace(int n) {
      this.maxRetrievalsPerNamespace = n;
      return this;
    }

    /** Estimated heap bytes of saved retrievals a namespace keeps at most; the oldest go first. */
    public Builder maxRetrievalBytesPerNamespace(long bytes) {
      this.maxRetrievalBytesPerNamespace = bytes;
      return this;
    }

    /** Saved retrievals all namespaces together keep at most; the oldest of the store go first. */
    public Builder maxRetrievals(int n) {
      this.maxRetrievals = n;
      return this;
    }

    /** Estimated heap bytes of saved retrievals all namespaces together keep at most; the oldest go first. */
    public Builder maxRetrievalBytes(long bytes) {
      this.maxRetrievalBytes = bytes;
      return this;
    }

    /** How long {@code open} waits for another process to release the store (0: fail at once). */
    public Builder lockTimeout(Duration timeout) {
      this.lockTimeout = timeout;
      return this;
    }

    public Builder clock(InstantSource clock) {
      this.clock = clock;
      return this;
    }

    /** The index's vector format: null keeps an existing store's (new stores get {@link VectorFormat#DEFAULT}). */
    public Builder vectorFormat(@Nullable VectorFormat format) {
      this.vectorFormat = format;
      return this;
    }

    /** HNSW candidates asked for, as a multiple of a float graph's (0: the vector format's own). */
    public Builder searchOversample(int times) {
      this.searchOversample = times;
      return this;
    }

    public LuceneStoreOptions build() {
      return new LuceneStoreOptions(
          commitEveryInserts, refreshEveryInserts, checkpointEveryBytes, hnswMaxConn, hnswBeamWidth,
          retrievalSyncDelayMillis, maxRetrievalsPerNamespace, maxRetrievalBytesPerNamespace, maxRetrievals,
          maxRetrievalBytes, lockTimeout, clock, vectorFormat, searchOversample);
    }
  }
}
