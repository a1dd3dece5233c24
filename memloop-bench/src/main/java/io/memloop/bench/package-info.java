/**
 * The runtime-learning benchmark harness: environments whose tasks recur over epochs with
 * verifiable outcomes, a frozen policy per environment standing in for a frozen LLM, strategies
 * that run the memory (no memory, the engine under a preset, later an oracle), a learning loop that
 * records every episode, and the metrics of the MemRL evaluation (per-epoch and last-epoch accuracy,
 * CSR, forgetting). {@link io.memloop.bench.Demo} is the entry point {@code memloop demo} calls.
 *
 * <p>Only the demo's types are public; the harness is package-private so it can change while more
 * environments and strategies are added.
 */
@NullMarked
package io.memloop.bench;

import org.jspecify.annotations.NullMarked;
