/**
 * The runtime-learning benchmark harness: environments whose tasks recur over epochs with
 * verifiable outcomes, a frozen policy per environment standing in for a frozen LLM, strategies
 * that run the memory (no memory, the engine under a preset, later an oracle), a learning loop that
 * records every episode, and the metrics of the MemRL evaluation (per-epoch and last-epoch accuracy,
 * CSR, forgetting). {@link io.memloop.bench.StreamBench} is the stream mode ({@code bench --stream}): never-seen
 * instances of recurring kinds with a drift, played once each ({@link io.memloop.bench.StreamLoop},
 * {@link io.memloop.bench.StreamMetrics}). {@link io.memloop.bench.Demo} is the entry point {@code memloop demo} calls.
 *
 * <p>This package holds what the environments and strategies share ({@link io.memloop.bench.Environment},
 * {@link io.memloop.bench.Task}, {@link io.memloop.bench.Episode}, {@link io.memloop.bench.GroundTruth}),
 * the loop, the metrics and the reports. Each environment has its own package with its simulator,
 * frozen policy and ground truth ({@code ops}, {@code sql}, {@code textworld}, {@code hardquestions});
 * the strategies are in {@code strategy}, the LLM policy in {@code llm}. Types are public where another
 * of these packages needs them, not as a stable API: it changes as environments and strategies are added.
 */
@NullMarked
package io.memloop.bench;

import org.jspecify.annotations.NullMarked;
