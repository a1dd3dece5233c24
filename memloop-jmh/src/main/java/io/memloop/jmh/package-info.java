/**
 * Performance measurements, not product code: JMH benchmarks (retrieval, reward, whole episodes, listing, reopen,
 * embedding) on stores built once from a seed ({@link io.memloop.jmh.BuildStore}, {@code Stores}),
 * and standalone probes (ingest rate, memory footprint, recall, load on a running server, history at scale) whose
 * figures BENCHMARKS.md quotes.
 */
@NullMarked
package io.memloop.jmh;

import org.jspecify.annotations.NullMarked;
