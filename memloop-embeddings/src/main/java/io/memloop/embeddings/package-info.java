/**
 * Implementations of {@link io.memloop.embed.Embedder}: {@link io.memloop.embeddings.MiniLmEmbedder}
 * runs all-MiniLM-L6-v2 (quantized, 384-d) in-process with no network access;
 * {@link io.memloop.embeddings.OpenAiEmbedder} calls any OpenAI-compatible {@code /v1/embeddings}
 * server (Ollama, vLLM, OpenAI). Everything else in this package is an implementation detail.
 */
@NullMarked
package io.memloop.embeddings;

import org.jspecify.annotations.NullMarked;
