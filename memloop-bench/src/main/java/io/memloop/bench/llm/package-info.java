/**
 * A language model as the benchmark's policy instead of the environments' frozen ones: the choice of
 * policy ({@link io.memloop.bench.llm.Policy}), the conversation with the model
 * ({@link io.memloop.bench.llm.LlmPolicy}), the prompt parts and reply parsers the environments share,
 * and the transcripts of a run.
 */
@NullMarked
package io.memloop.bench.llm;

import org.jspecify.annotations.NullMarked;
