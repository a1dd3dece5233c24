/**
 * Every learning decision of the loop, stated once. Phase B of retrieval runs as a pipeline of small named
 * steps ({@link io.memloop.policy.SelectionPipeline}): {@code Score} → {@code TieBreak} → {@code QMinFilter} →
 * {@code TaskOrder} → {@link io.memloop.policy.Explore} → {@code NoteDepth}, over a pool of
 * {@link io.memloop.policy.PoolEntry} values, so that the engine, offline selection and off-policy evaluation
 * run the very same code. Each step states its order and its tie rule in its own javadoc.
 */
@NullMarked
package io.memloop.policy;

import org.jspecify.annotations.NullMarked;
