/**
 * The text-world environment, ALFWorld-like: the houses and goals, the simulator of one episode
 * ({@link io.memloop.bench.textworld.TextWorldSimulator}), the frozen policy
 * ({@link io.memloop.bench.textworld.TextWorldPolicy}) and the tasks with their ground truth
 * ({@link io.memloop.bench.textworld.TextWorldEnvironment}).
 */
@NullMarked
package io.memloop.bench.textworld;

import org.jspecify.annotations.NullMarked;
