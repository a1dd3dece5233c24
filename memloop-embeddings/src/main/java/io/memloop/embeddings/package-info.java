/**
 * Implementations of {@link io.memloop.embed.Embedder}: {@link io.memloop.embeddings.MiniLmEmbedder}
 * runs all-MiniLM-L6-v2 (quantized, 384-d) in-process with no network access;
 * {@link io.memloop.embeddings.OpenAiEmbedder} calls any OpenAI-compatible {@code /v1/embeddings}
 * server (Ollama, vLLM, OpenAI). Also the OpenAI-compatible {@link io.memloop.chat.ChatModel},
 * {@link io.memloop.embeddings.OpenAiChatModel} ({@code /v1/chat/completions}), which shares the
 * embeddings client's HTTP handling. Everything else in this package is an implementation detail.
 */
@NullMarked
package io.memloop.embeddings;

import org.jspecify.annotations.NullMarked;
