package io.memloop.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * MemLoop as a LangChain4j {@link ContentRetriever}: each query retrieves the experiences that proved most
 * useful for similar tasks (two-phase retrieval), and once the task ends, {@link #reportOutcome} rewards that
 * retrieval, so experiences that help rise and misleading ones sink. Plug it into a {@code
 * DefaultRetrievalAugmentor} or an AI service's {@code contentRetriever(...)}.
 *
 * <pre>{@code
 * var retriever = MemLoopContentRetriever.builder().memLoop(loop).namespace("support-bot").build();
 * var augmentor = DefaultRetrievalAugmentor.builder().contentRetriever(retriever).build();
 * // ... the model answers with the experiences injected; when the outcome is known:
 * retriever.reportOutcome(chatMemoryId, true);
 * retriever.remember(chatMemoryId, "what worked: ...", true);
 * }</pre>
 *
 * <p>Each content is one experience; its metadata carries {@code memoryId}, {@code outcome}, {@code q} (the
 * learned utility), {@code retrievalId} and {@code intent}, and {@link ContentMetadata#SCORE} the selection
 * score. Retrievals are tracked per conversation ({@code chatMemoryId} of the query's metadata, or
 * {@link #DEFAULT_CONVERSATION} when there is none) until their outcome is reported. Thread-safe.
 */
public final class MemLoopContentRetriever implements ContentRetriever {
  /** The conversation key of queries that carry no chat memory id. */
  public static final String DEFAULT_CONVERSATION = "default";

  private final MemLoop loop;
  private final Function<Query, String> namespace;
  private final boolean successesOnly;
  /** Per conversation: the retrievals not yet rewarded and the last query's text. */
  private final Map<Object, Pending> pending = new ConcurrentHashMap<>();

  private record Pending(List<String> retrievalIds, String lastQuery) {}

  private MemLoopContentRetriever(Builder b) {
    this.loop = Objects.requireNonNull(b.loop, "memLoop");
    this.namespace = Objects.requireNonNull(b.namespace, "namespace");
    this.successesOnly = b.successesOnly;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public List<Content> retrieve(Query query) {
    String ns = namespace.apply(query);
    Retrieval r = loop.retrieve(ns, Intent.ofText(query.text()));
    Object conversation = conversation(query, r.id());
    pending.compute(conversation, (k, p) -> {
      List<String> ids = p == null ? new ArrayList<>() : new ArrayList<>(p.retrievalIds());
      ids.add(r.id());
      return new Pending(List.copyOf(ids), query.text());
    });
    Map<String, Double> scores = new java.util.HashMap<>();
    r.candidates().forEach(c -> scores.put(c.memoryId(), c.score()));
    List<Content> out = new ArrayList<>();
    for (Memory m : r.selected()) {
      if (successesOnly && m.outcome() != Outcome.SUCCESS) {
        continue;
      }
      Metadata md = new Metadata()
          .put("memoryId", m.id())
          .put("outcome", m.outcome().name().toLowerCase(java.util.Locale.ROOT))
          .put("q", m.q())
          .put("retrievalId", r.id())
          .put("intent", m.intentText());
      out.add(Content.from(TextSegment.from(m.experience(), md),
          Map.of(ContentMetadata.SCORE, scores.getOrDefault(m.id(), 0.0))));
    }
    return out;
  }

  /**
   * Rewards every retrieval of {@code chatMemoryId} not yet rewarded with the task's outcome (the
   * namespace's reward bounds: +1 / -1 by default) and forgets them.
   *
   * @return the utility updates, one result per retrieval
   */
  public List<RewardResult> reportOutcome(@Nullable Object chatMemoryId, boolean success) {
    Pending p = pending.get(key(chatMemoryId));
    if (p == null) {
      return List.of();
    }
    String ns = namespaceOf(chatMemoryId, p);
    var config = loop.config(ns);
    return reward(chatMemoryId, success ? config.rewardMax() : config.rewardMin(), null);
  }

  /**
   * Rewards every pending retrieval of {@code chatMemoryId} with {@code reward}, telling which of the shown
   * memories the model actually used ({@code null} if unknown), and forgets them.
   */
  public List<RewardResult> reward(@Nullable Object chatMemoryId, double reward, @Nullable List<String> usedMemoryIds) {
    Pending p = pending.remove(key(chatMemoryId));
    if (p == null) {
      return List.of();
    }
    String ns = namespaceOf(chatMemoryId, p);
    List<RewardResult> results = new ArrayList<>();
    for (String id : p.retrievalIds()) {
      results.add(loop.reward(ns, id, reward, usedMemoryIds));
    }
    return results;
  }

  /**
   * Stores what this conversation learned under its last query (the task), so that similar tasks retrieve
   * it: for a success the procedure that worked, for a failure what went wrong and what to avoid.
   *
   * @return the stored memory, or empty when the conversation made no query
   */
  public Optional<Memory> remember(@Nullable Object chatMemoryId, String experience, boolean success) {
    Object key = key(chatMemoryId);
    LastQuery last = lastQueries.get(key);
    if (last == null) {
      return Optional.empty();
    }
    String ns = namespace.apply(query(last.text(), chatMemoryId));
    return Optional.of(loop.remember(ns, Intent.ofText(last.text()), experience,
        success ? Outcome.SUCCESS : Outcome.FAILURE, last.retrievalId()));
  }

  /** Retrieval ids of {@code chatMemoryId} whose outcome was not reported yet. */
  public List<String> pendingRetrievals(@Nullable Object chatMemoryId) {
    Pending p = pending.get(key(chatMemoryId));
    return p == null ? List.of() : p.retrievalIds();
  }

  /** A conversation's last query and its retrieval. */
  private record LastQuery(String text, String retrievalId) {}

  /** Last query per conversation, kept after its outcome is reported (for {@link #remember}). */
  private final Map<Object, LastQuery> lastQueries = new ConcurrentHashMap<>();

  private Object conversation(Query query, String retrievalId) {
    Object id = query.metadata() == null ? null : query.metadata().chatMemoryId();
    Object key = key(id);
    lastQueries.put(key, new LastQuery(query.text(), retrievalId));
    return key;
  }

  private String namespaceOf(@Nullable Object chatMemoryId, Pending p) {
    return namespace.apply(query(p.lastQuery(), chatMemoryId));
  }

  /** The query a namespace resolver sees for a conversation's task. */
  private static Query query(String text, @Nullable Object chatMemoryId) {
    return chatMemoryId == null ? Query.from(text)
        : Query.from(text, dev.langchain4j.rag.query.Metadata.from(
            dev.langchain4j.data.message.UserMessage.from(text), chatMemoryId, List.of()));
  }

  private static Object key(@Nullable Object chatMemoryId) {
    return chatMemoryId == null ? DEFAULT_CONVERSATION : chatMemoryId;
  }

  /** Builder: {@link #memLoop} and a namespace are required. */
  public static final class Builder {
    private @Nullable MemLoop loop;
    private @Nullable Function<Query, String> namespace;
    private boolean successesOnly;

    private Builder() {}

    public Builder memLoop(MemLoop loop) {
      this.loop = loop;
      return this;
    }

    /** Every query works in this namespace. */
    public Builder namespace(String ns) {
      io.memloop.Checks.requireNamespace(ns);
      this.namespace = q -> ns;
      return this;
    }

    /** The namespace of each query (e.g. per user from the chat memory id); must be stable per conversation. */
    public Builder namespace(Function<Query, String> resolver) {
      this.namespace = resolver;
      return this;
    }

    /** Leave failure notes out of the contents (they are still retrieved and learned from). */
    public Builder successesOnly(boolean on) {
      this.successesOnly = on;
      return this;
    }

    public MemLoopContentRetriever build() {
      return new MemLoopContentRetriever(this);
    }
  }
}
