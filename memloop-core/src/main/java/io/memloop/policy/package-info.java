/**
 * Learning decisions, each stated once: what the engine decides about retrieval, exploration and per-task
 * learning, apart from where the state lives (stores keep it as {@link io.memloop.store.Annotations} and
 * ledger entries without interpreting it).
 */
@NullMarked
package io.memloop.policy;

import org.jspecify.annotations.NullMarked;
