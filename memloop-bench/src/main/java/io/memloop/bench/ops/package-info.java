/**
 * The recurring-ops environment, the one {@code memloop demo} runs: the task catalogue, the tasks
 * with their distractor twins, stale memories and ground truth
 * ({@link io.memloop.bench.ops.RecurringTasksEnvironment}), and its frozen policy
 * ({@link io.memloop.bench.ops.CopyFirstPolicy}).
 */
@NullMarked
package io.memloop.bench.ops;

import org.jspecify.annotations.NullMarked;
