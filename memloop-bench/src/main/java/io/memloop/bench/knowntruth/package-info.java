/**
 * A world whose truth is known, for checking off-policy evaluation against live runs: tasks, the memories each
 * can be shown, the one memory per task that truly helps, and an agent whose success depends only on whether it
 * is shown. {@link io.memloop.bench.knowntruth.KnownTruthWorld} logs a run through the engine's event log,
 * evaluates candidates from that log and runs each live under the same random numbers.
 */
@NullMarked
package io.memloop.bench.knowntruth;

import org.jspecify.annotations.NullMarked;
