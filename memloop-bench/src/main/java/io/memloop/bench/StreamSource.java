package io.memloop.bench;

/**
 * An environment that can also serve a stream of task instances never seen before, drawn from its recurring
 * kinds, with a drift partway ({@code memloop bench --stream}): the setting of real agents, which rarely see the
 * same task twice and whose world changes under them (a runbook goes stale, an API moves).
 *
 * <p>Implemented by the environments themselves; the benchmark runs every environment that implements it.
 */
public interface StreamSource {

  /**
   * The stream of run {@code seed}: {@code shape.length()} instances in play order. Each instance has an id and
   * an intent used by no training task, no held-out task and no earlier instance of the stream; instances of
   * each kind recur throughout, so what one taught can help the next of its kind. From index
   * {@link StreamWorld#driftAt()} on, the kinds marked {@link StreamTask#driftingKind()} are played in the
   * changed world: their right procedure or answer moved, so experiences that were right for them before the
   * drift are now stale, and the frozen policy can still find the new one on its own.
   *
   * <p>The same seed and shape give the same stream; the world is immutable and thread-safe.
   */
  StreamWorld stream(long seed, StreamShape shape);
}
