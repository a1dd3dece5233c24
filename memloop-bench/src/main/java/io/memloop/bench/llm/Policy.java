package io.memloop.bench.llm;

/**
 * Who attempts the benchmark's tasks: each environment's frozen scripted policy (the default, no
 * model needed), or a language model over a chat endpoint ({@link LlmPolicy}). Either way the
 * policy is never trained: whatever improves over epochs improves through the memory shown to it.
 */
public sealed interface Policy permits Policy.Frozen, LlmPolicy {

  /** The frozen scripted policies, deterministic given the episode's random generator. */
  Policy FROZEN = new Frozen();

  /** Printed in reports: {@code frozen}, or the chat model's id ({@code openai:qwen2.5:7b}). */
  String id();

  /** The environments' own scripted policies. */
  record Frozen() implements Policy {
    @Override
    public String id() {
      return "frozen";
    }
  }
}
