/**
 * The engine's report of what it did: {@link io.memloop.events.EventSink} receives every completed retrieval,
 * reward, remembered, edited and forgotten memory, on the caller's thread. The engine only calls it; keeping the
 * records (the JSON Lines event log) and reading them back belong to {@code memloop-history}.
 */
@NullMarked
package io.memloop.events;

import org.jspecify.annotations.NullMarked;
