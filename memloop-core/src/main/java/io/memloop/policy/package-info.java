/**
 * Every learning decision of the loop, stated once, apart from where its state lives.
 *
 * <ul>
 *   <li>Phase B of retrieval as a pipeline of small named steps ({@link io.memloop.policy.SelectionPipeline}):
 *       {@code Score} → {@code TieBreak} → {@code QMinFilter} → {@code TaskOrder} → {@link io.memloop.policy.Explore}
 *       → {@code NoteDepth}, over a pool of {@link io.memloop.policy.PoolEntry} values, so that the engine, offline
 *       selection and off-policy evaluation run the very same code. Each step states its order and tie rule.
 *   <li>The rules every store obeys: the recall order ({@link io.memloop.policy.Recall}), which intent group a new
 *       memory joins ({@link io.memloop.policy.Grouping}) and what a capacity bound evicts first
 *       ({@link io.memloop.policy.Eviction}); the shared contract suite pins each on every store.
 *   <li>The learning state policies keep: per-retrieval and per-memory {@link io.memloop.store.Annotations} (e.g.
 *       {@link io.memloop.policy.TaskNote}) and the namespace's ledger, which stores persist without reading.
 * </ul>
 */
@NullMarked
package io.memloop.policy;

import org.jspecify.annotations.NullMarked;
