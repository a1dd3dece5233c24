/**
 * The strategies the benchmark compares, each a way to run the memory: no memory (the floor), the
 * plain baselines ({@code rag}, {@code rag-success}, {@code recent}), the engine under a preset or an
 * ablation, MemP-like deletion, and the oracle that reads ground truth (the ceiling).
 */
@NullMarked
package io.memloop.bench.strategy;

import org.jspecify.annotations.NullMarked;
