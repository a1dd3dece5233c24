/**
 * Experience extraction: a finished {@link io.memloop.history.extraction.Trajectory} becomes the text to remember,
 * distilled by a language model ({@link io.memloop.history.extraction.LlmExperienceExtractor}, falling back to the
 * raw trajectory) and, off the agent's path, queued with back-pressure ({@link
 * io.memloop.history.extraction.AsyncExperienceManager}).
 */
@NullMarked
package io.memloop.history.extraction;

import org.jspecify.annotations.NullMarked;
