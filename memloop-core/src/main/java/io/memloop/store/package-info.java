/**
 * The storage SPI: what the engine needs from a store, and the in-memory reference implementation.
 * Every implementation passes the same contract suite ({@code MemoryStoreContract} in the test-jar).
 */
@NullMarked
package io.memloop.store;

import org.jspecify.annotations.NullMarked;
