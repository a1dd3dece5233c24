package io.memloop.bench.llm;

import io.memloop.chat.ChatMessage;
import io.memloop.chat.ChatModel;
import io.memloop.chat.ChatReply;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/** A chat model answering with {@code reply(messages, call)}; counts requests and keeps the conversations. */
public final class ScriptedChatModel implements ChatModel {
  final BiFunction<List<ChatMessage>, Integer, String> reply;
  public final AtomicInteger calls = new AtomicInteger();
  public final List<List<ChatMessage>> seen = Collections.synchronizedList(new ArrayList<>());

  public ScriptedChatModel(BiFunction<List<ChatMessage>, Integer, String> reply) {
    this.reply = reply;
  }

  @Override
  public String modelId() {
    return "test:scripted";
  }

  @Override
  public ChatReply complete(List<ChatMessage> messages, long seed) {
    seen.add(messages);
    return new ChatReply(reply.apply(messages, calls.incrementAndGet()), "stop", 10, 2);
  }

  /** The first user message of a conversation: the task's prompt. */
  public static String firstUser(List<ChatMessage> messages) {
    return messages.get(1).content();
  }
}
