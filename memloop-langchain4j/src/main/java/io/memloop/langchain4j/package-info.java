/**
 * The LangChain4j adapter: {@link io.memloop.langchain4j.MemLoopContentRetriever} retrieves experiences as a
 * {@code ContentRetriever} and turns a chat's reported outcome into MemLoop's reward. It only maps types and
 * calls; learning stays in the core.
 */
@NullMarked
package io.memloop.langchain4j;

import org.jspecify.annotations.NullMarked;
