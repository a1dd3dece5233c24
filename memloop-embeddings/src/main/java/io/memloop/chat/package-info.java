/**
 * The chat-model SPI: what MemLoop needs of a language model (a reply to a conversation), so that
 * callers such as the benchmark's LLM policy do not depend on one client. It lives beside its
 * OpenAI-compatible client ({@code io.memloop.embeddings.OpenAiChatModel}) in {@code memloop-embeddings},
 * not in the engine's core: the learning loop never talks to a language model.
 */
@NullMarked
package io.memloop.chat;

import org.jspecify.annotations.NullMarked;
