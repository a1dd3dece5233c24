package io.memloop.bench;

import io.memloop.embed.Embedder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Every intent of an environment, embedded once in batches. Embedding is the slow part of a run
 * (~600 sentences/s for MiniLM on two cores) while the tasks recur every epoch, under every
 * strategy and seed, so each distinct intent is embedded exactly once. Immutable after
 * construction; the returned arrays must not be modified.
 */
public final class IntentEmbeddings {
  static final int BATCH = 64;

  private final Map<String, float[]> byIntent;
  private final int dimension;

  private IntentEmbeddings(Map<String, float[]> byIntent, int dimension) {
    this.byIntent = byIntent;
    this.dimension = dimension;
  }

  /** Embeds every intent of {@code env}: its tasks, held-out tasks and prior experiences. */
  public static IntentEmbeddings of(Embedder embedder, Environment env) {
    List<String> intents = new ArrayList<>();
    env.tasks().forEach(t -> intents.add(t.intent()));
    env.heldOut().forEach(t -> intents.add(t.intent()));
    env.priorExperiences().forEach(p -> intents.add(p.intent()));
    return of(embedder, intents);
  }

  static IntentEmbeddings of(Embedder embedder, List<String> texts) {
    List<String> intents = new ArrayList<>(new LinkedHashSet<>(texts));
    int dimension = embedder.dimension();
    Map<String, float[]> byIntent = new HashMap<>();
    for (int from = 0; from < intents.size(); from += BATCH) {
      List<String> batch = intents.subList(from, Math.min(intents.size(), from + BATCH));
      List<float[]> vectors = embedder.embedAll(batch);
      if (vectors.size() != batch.size()) {
        throw new IllegalStateException(
            embedder.modelId() + " returned " + vectors.size() + " embeddings for " + batch.size() + " texts");
      }
      for (int i = 0; i < batch.size(); i++) {
        float[] v = vectors.get(i);
        if (v.length != dimension) {
          throw new IllegalStateException(
              embedder.modelId() + " returned a " + v.length + "-d embedding, its dimension() is " + dimension);
        }
        byIntent.put(batch.get(i), v);
      }
    }
    return new IntentEmbeddings(byIntent, dimension);
  }

  int dimension() {
    return dimension;
  }

  int size() {
    return byIntent.size();
  }

  public float[] of(Task task) {
    return of(task.intent());
  }

  float[] of(String intent) {
    float[] v = byIntent.get(intent);
    if (v == null) {
      throw new IllegalArgumentException("intent was not embedded: " + intent);
    }
    return v;
  }
}
