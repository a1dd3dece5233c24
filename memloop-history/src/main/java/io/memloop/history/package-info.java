/**
 * The execution history: the versioned JSON Lines event log the engine writes ({@link
 * io.memloop.history.JsonlEventLog}) and every reader of it — {@code import} of event logs and of OpenTelemetry
 * GenAI traces ({@link io.memloop.history.EventLogImport}, {@link io.memloop.history.OtlpTraces}), off-policy
 * evaluation of other configurations on the logged decisions ({@link io.memloop.history.OffPolicyEvaluation}) and
 * export for RL and fine-tuning ({@link io.memloop.history.RlExport}). It reads logs and calls the core's
 * selection; it never decides how the engine learns.
 */
@NullMarked
package io.memloop.history;

import org.jspecify.annotations.NullMarked;
