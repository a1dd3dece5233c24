/**
 * The chat-model SPI: what MemLoop needs of a language model (a reply to a conversation), so that
 * callers such as the benchmark's LLM policy do not depend on one client. The OpenAI-compatible
 * client is {@code io.memloop.embeddings.OpenAiChatModel} in {@code memloop-embeddings}.
 */
@NullMarked
package io.memloop.chat;

import org.jspecify.annotations.NullMarked;
