/**
 * The decision report of an event log ({@code memloop report}): {@link io.memloop.history.report.DecisionReport}
 * renders an {@link io.memloop.history.OffPolicyEvaluation} result as {@code report.md} and {@code report.html}
 * with two charts. It computes no estimate of its own; every number comes from the evaluation.
 */
@NullMarked
package io.memloop.history.report;

import org.jspecify.annotations.NullMarked;
