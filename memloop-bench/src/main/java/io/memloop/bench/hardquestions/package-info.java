/**
 * The hard-questions environment, HLE-like: generated questions with one verifiable answer each and
 * their ground truth ({@link io.memloop.bench.hardquestions.HardQuestionsEnvironment}), and the frozen
 * policy that can only reuse a verified answer to the same question
 * ({@link io.memloop.bench.hardquestions.HardQuestionPolicy}).
 */
@NullMarked
package io.memloop.bench.hardquestions;

import org.jspecify.annotations.NullMarked;
