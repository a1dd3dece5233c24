/**
 * The SolrCloud store: {@link io.memloop.store.solr.SolrStore}. One collection holds every namespace, each
 * namespace's documents routed to one shard; Phase A is a kNN search over intent-group documents, and Q, visits and
 * the reward claim are updated in place under each document's {@code _version_}, so several processes can share a
 * collection.
 *
 * <p>Only {@code SolrStore}, {@code SolrStoreOptions} and the Jetty-free {@code JdkCloudSolrClient} are public;
 * everything else is an implementation detail. {@code SolrStore} is a facade over small parts: {@code SolrIo} (writes,
 * retried reads, errors), {@code Routing} and {@code Fields} (document layout), {@code CollectionMeta} and
 * {@code IdSequence} (collection-wide documents), {@code IntentIndex}, {@code Inserter} and {@code RecentIntents}
 * (intent groups and memory writes), {@code MemoryReader} and {@code MemorySearch} (recall, reads, listing),
 * {@code Editor}, {@code Deleter}, {@code RetrievalBook}, {@code Rewarder} with its {@code UpdateBatcher}, and
 * {@code LedgerBook} (settings and ledger).
 */
@NullMarked
package io.memloop.store.solr;

import org.jspecify.annotations.NullMarked;
