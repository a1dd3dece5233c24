/**
 * The durable embedded store: {@link io.memloop.store.lucene.LuceneStore}. Lucene's HNSW index serves
 * Phase A and keeps vectors and texts on disk; an append-only write-ahead log with group commit makes
 * every acknowledged insert, reward and delete durable (saved retrievals within a short bound, see
 * {@link io.memloop.store.lucene.LuceneStore}), and keeps the frequently updated utilities out of
 * Lucene.
 *
 * <p>Only {@code LuceneStore} and {@code LuceneStoreOptions} are public; everything else is an
 * implementation detail.
 */
@NullMarked
package io.memloop.store.lucene;

import org.jspecify.annotations.NullMarked;
