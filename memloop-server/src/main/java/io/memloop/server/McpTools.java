package io.memloop.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.Checks;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP tools: retrieve experiences for an intent (the task an agent is about to do), report the outcome of a retrieval, remember an
 * experience, read stats. Each tool's description tells an LLM when and how to call it without any other
 * documentation. Tool failures (bad arguments, unknown ids) come back as tool results with {@code isError}
 * and a message naming the argument, so the model can correct itself; nothing is written by a call that fails.
 */
final class McpTools {
  private static final Logger LOG = LoggerFactory.getLogger(McpTools.class);
  static final McpJsonMapper JSON = new JacksonMcpJsonMapper(Json.MAPPER);

  static final String RETRIEVE = "retrieve_experiences";
  static final String REPORT = "report_outcome";
  static final String REMEMBER = "remember_experience";
  static final String STATS = "memory_stats";
  static final String END = "end_episode";
  static final String SEARCH = "search_memories";
  static final String EDIT = "edit_memory";

  private static final String NAMESPACE_PROPERTY = """
      "namespace": {"type": "string", "description": "Memory namespace (tenant). Omit it when your access covers a single namespace."}""";

  private final Service service;
  private final Function<McpSyncServerExchange, ApiKeys.@Nullable Grant> grantOf;
  private final @Nullable String defaultNamespace;
  private final Metrics metrics;

  /**
   * @param grantOf what the calling client may use (from its transport context), null if unauthenticated
   * @param defaultNamespace the namespace when a call names none and the grant covers several (stdio)
   */
  McpTools(Service service, Metrics metrics, Function<McpSyncServerExchange, ApiKeys.@Nullable Grant> grantOf,
      @Nullable String defaultNamespace) {
    this.service = service;
    this.metrics = metrics;
    this.grantOf = grantOf;
    this.defaultNamespace = defaultNamespace;
  }

  List<SyncToolSpecification> tools() {
    return List.of(
        tool(RETRIEVE, """
            Call this FIRST, before you start a task: give your intent (the task in a sentence or two) and it \
            returns experiences (what worked or failed before on similar tasks) ranked by how useful they proved. \
            Read them, use the ones that apply, then do the task. \
            The result has a retrievalId: keep it and call report_outcome with it when the task is done, so that \
            experiences that helped rank higher next time and misleading ones sink.""",
            """
            {"type": "object", "properties": {
              "intent": {"type": "string", "description": "Your intent: the task you are about to do, in one or two sentences (what, not how)."},
              %s
            }, "required": ["intent"], "additionalProperties": false}""".formatted(NAMESPACE_PROPERTY),
            Set.of("intent", "namespace"),
            (ns, args) -> {
              ObjectNode body = Json.MAPPER.createObjectNode();
              copy(args, "intent", body, "intent");
              Map<String, Object> r = service.retrieve(ns, body);
              return new Answer(retrievalText(r), r);
            }),
        tool(REPORT, """
            Call this once when a task you retrieved experiences for is finished: report whether it succeeded. \
            Pass the retrievalId that retrieve_experiences returned and outcome "success" or "failure" (or a \
            numeric reward instead). If you know which experiences you actually followed, list their ids in \
            usedMemoryIds. Each retrieval can be reported once.""",
            """
            {"type": "object", "properties": {
              "retrievalId": {"type": "string", "description": "The retrievalId from retrieve_experiences."},
              "outcome": {"type": "string", "enum": ["success", "failure"], "description": "How the task ended."},
              "reward": {"type": "number", "description": "Instead of outcome: a reward in the namespace's range (default -1 to 1)."},
              "usedMemoryIds": {"type": "array", "items": {"type": "string"}, "description": "Ids of the experiences you actually used (optional)."},
              "nextRetrievalId": {"type": "string", "description": "For one step of a multi-step task: the retrievalId of the task's next step (optional)."},
              %s
            }, "required": ["retrievalId"], "additionalProperties": false}""".formatted(NAMESPACE_PROPERTY),
            Set.of("retrievalId", "outcome", "reward", "usedMemoryIds", "nextRetrievalId", "namespace"),
            (ns, args) -> {
              ObjectNode body = Json.MAPPER.createObjectNode();
              copy(args, "retrievalId", body, "retrievalId");
              copy(args, "usedMemoryIds", body, "usedMemoryIds");
              copy(args, "nextRetrievalId", body, "nextRetrievalId");
              boolean hasOutcome = args.hasNonNull("outcome");
              boolean hasReward = args.hasNonNull("reward");
              if (hasOutcome == hasReward) {
                throw MemLoopException.invalid("outcome", "give exactly one of outcome (\"success\" or \"failure\") and reward");
              }
              if (hasOutcome) {
                body.put("reward", rewardOf(ns, args.get("outcome")));
              } else {
                copy(args, "reward", body, "reward");
              }
              Map<String, Object> r = service.reward(ns, body);
              return new Answer("Recorded: " + Json.write(r), r);
            }),
        tool(REMEMBER, """
            Call this after a task to store what you learned, so that you (or another agent) can reuse it on a \
            similar task: for a success, the short procedure that worked; for a failure, what went wrong and \
            what to avoid. Write it to be useful to someone who has not seen this task: concrete steps, \
            commands, names; no chit-chat.""",
            """
            {"type": "object", "properties": {
              "intent": {"type": "string", "description": "The intent the experience is about: the task as you would describe it before starting (the intent you gave retrieve_experiences)."},
              "experience": {"type": "string", "description": "What worked (steps) or what went wrong and what to avoid."},
              "outcome": {"type": "string", "enum": ["success", "failure", "unknown"], "description": "How the task ended."},
              "retrievalId": {"type": "string", "description": "The retrievalId of this task's retrieve_experiences call, if you made one: it links what you did to the experiences you were shown."},
              %s
            }, "required": ["intent", "experience", "outcome"], "additionalProperties": false}""".formatted(NAMESPACE_PROPERTY),
            Set.of("intent", "experience", "outcome", "retrievalId", "namespace"),
            (ns, args) -> {
              ObjectNode body = Json.MAPPER.createObjectNode();
              copy(args, "intent", body, "intent");
              copy(args, "experience", body, "experience");
              copy(args, "outcome", body, "outcome");
              copy(args, "retrievalId", body, "retrievalId");
              Map<String, Object> m = service.remember(ns, body);
              return new Answer("Remembered as " + m.get("id") + ".", m);
            }),
        tool(STATS, """
            Shows how many experiences the memory holds (successes, failures), how many retrievals await an \
            outcome report, and the spread of learned utilities. Use it to check that outcomes are being reported.""",
            """
            {"type": "object", "properties": {
              %s
            }, "additionalProperties": false}""".formatted(NAMESPACE_PROPERTY),
            Set.of("namespace"),
            (ns, args) -> {
              Map<String, Object> s = service.stats(ns);
              return new Answer(Json.write(s), s);
            }),
        tool(END, """
            Call this once when a task you retrieved experiences for is finished, instead of report_outcome followed \
            by remember_experience: it reports whether the task succeeded and stores what you learned, in one call. \
            Pass the retrievalId from retrieve_experiences, outcome "success" or "failure", your intent (as you gave \
            it to retrieve_experiences) and the experience: for a success, the short procedure that worked; for a \
            failure, what went wrong and what to avoid.""",
            """
            {"type": "object", "properties": {
              "retrievalId": {"type": "string", "description": "The retrievalId from retrieve_experiences."},
              "outcome": {"type": "string", "enum": ["success", "failure"], "description": "How the task ended."},
              "reward": {"type": "number", "description": "A reward in the namespace's range instead of the one outcome gives (optional)."},
              "intent": {"type": "string", "description": "The intent you gave retrieve_experiences: the task, in one or two sentences."},
              "experience": {"type": "string", "description": "What worked (steps) or what went wrong and what to avoid."},
              "usedMemoryIds": {"type": "array", "items": {"type": "string"}, "description": "Ids of the experiences you actually used (optional)."},
              "nextRetrievalId": {"type": "string", "description": "For one step of a multi-step task: the retrievalId of the task's next step (optional)."},
              %s
            }, "required": ["retrievalId", "outcome", "intent", "experience"], "additionalProperties": false}""".formatted(NAMESPACE_PROPERTY),
            Set.of("retrievalId", "outcome", "reward", "intent", "experience", "usedMemoryIds", "nextRetrievalId", "namespace"),
            (ns, args) -> {
              ObjectNode body = Json.MAPPER.createObjectNode();
              copy(args, "retrievalId", body, "retrievalId");
              copy(args, "usedMemoryIds", body, "usedMemoryIds");
              copy(args, "nextRetrievalId", body, "nextRetrievalId");
              copy(args, "intent", body, "intent");
              copy(args, "experience", body, "experience");
              JsonNode outcome = args.get("outcome");
              if (outcome == null || outcome.isNull()) {
                throw MemLoopException.invalid("outcome", "is required: \"success\" or \"failure\"");
              }
              double fromOutcome = rewardOf(ns, outcome);
              if (args.hasNonNull("reward")) {
                copy(args, "reward", body, "reward");
              } else {
                body.put("reward", fromOutcome);
              }
              body.put("outcome", outcome.textValue().toLowerCase(Locale.ROOT));
              Map<String, Object> r = service.endEpisode(ns, body);
              @SuppressWarnings("unchecked")
              Map<String, Object> memory = (Map<String, Object>) r.get("memory");
              return new Answer("Recorded the outcome and remembered the experience as " + memory.get("id") + ".", r);
            }),
        tool(SEARCH, """
            Lists stored experiences: every one whose intent or text holds all the words of text (any case), \
            optionally only successes or failures, or a range of learned utility q, sorted as asked, a page at a \
            time (pass the answer's next as after for the next page). Use it to review or clean up what is stored; \
            before a task, call retrieve_experiences instead.""",
            """
            {"type": "object", "properties": {
              "text": {"type": "string", "description": "Words that must all occur in the experience or its intent (optional)."},
              "outcome": {"type": "string", "enum": ["success", "failure", "unknown"], "description": "Only experiences of this outcome (optional)."},
              "minQ": {"type": "number", "description": "Lowest learned utility (optional)."},
              "maxQ": {"type": "number", "description": "Highest learned utility (optional)."},
              "sort": {"type": "string", "enum": ["created", "updated", "q", "visits"], "description": "Sort key (default created)."},
              "order": {"type": "string", "enum": ["asc", "desc"], "description": "Sort direction (default asc)."},
              "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Page size (default 10)."},
              "after": {"type": "string", "description": "The next value of the previous page."},
              %s
            }, "additionalProperties": false}""".formatted(NAMESPACE_PROPERTY),
            Set.of("text", "outcome", "minQ", "maxQ", "sort", "order", "limit", "after", "namespace"),
            (ns, args) -> {
              Map<String, List<String>> parameters = new java.util.LinkedHashMap<>();
              parameters.put("limit", List.of("10"));
              for (String name : List.of("text", "outcome", "minQ", "maxQ", "sort", "order", "limit", "after")) {
                JsonNode v = args.get(name);
                if (v == null || v.isNull()) {
                  continue;
                }
                if (name.equals("limit") && (!v.canConvertToInt() || v.asInt() < 1 || v.asInt() > 100 || !v.isIntegralNumber())) {
                  throw MemLoopException.invalid("limit", "must be an integer from 1 to 100");
                }
                if (!(v.isTextual() || v.isNumber())) {
                  throw MemLoopException.invalid(name, "must be a " + (name.endsWith("Q") ? "number" : "string") + ", got " + Requests.kind(v));
                }
                parameters.put(name, List.of(v.asText()));
              }
              Map<String, Object> page = service.list(ns, parameters);
              return new Answer(Json.write(page), page);
            }),
        tool(EDIT, """
            Replaces the text of a stored experience (by its id, from retrieve_experiences or search_memories) \
            when it is wrong, outdated or unclear. It keeps its learned utility and history.""",
            """
            {"type": "object", "properties": {
              "memoryId": {"type": "string", "description": "The experience's id."},
              "experience": {"type": "string", "description": "The corrected experience text."},
              %s
            }, "required": ["memoryId", "experience"], "additionalProperties": false}""".formatted(NAMESPACE_PROPERTY),
            Set.of("memoryId", "experience", "namespace"),
            (ns, args) -> {
              JsonNode id = args.get("memoryId");
              if (id == null || !id.isTextual()) {
                throw MemLoopException.invalid("memoryId", "is required: the experience's id");
              }
              ObjectNode body = Json.MAPPER.createObjectNode();
              copy(args, "experience", body, "experience");
              Map<String, Object> m = service.edit(ns, id.textValue(), body);
              return new Answer("Edited " + m.get("id") + ".", m);
            }));
  }

  /** The reward an outcome stands for in {@code ns}: the top of its reward range for a success, the bottom for a failure. */
  private double rewardOf(String ns, JsonNode outcome) {
    MemLoopConfig config = service.engine().plannedConfig(ns);
    String s = outcome.isTextual() ? outcome.textValue().toLowerCase(Locale.ROOT) : "";
    return switch (s) {
      case "success" -> config.rewardMax();
      case "failure" -> config.rewardMin();
      default -> throw MemLoopException.invalid("outcome", "must be \"success\" or \"failure\"");
    };
  }

  private record Answer(String text, Map<String, Object> structured) {}

  @FunctionalInterface
  private interface Call {
    Answer apply(String namespace, ObjectNode args);
  }

  private SyncToolSpecification tool(String name, String description, String schema, Set<String> allowed, Call call) {
    return SyncToolSpecification.builder()
        .tool(Tool.builder(name, JSON, schema).description(description).build())
        .callHandler((exchange, request) -> {
          long start = System.nanoTime();
          int status = 200;
          try {
            JsonNode given = Json.MAPPER.valueToTree(request.arguments() == null ? Map.of() : request.arguments());
            if (allowed.contains("intent") && given.has("task")) { // a client that cached the tools' old schema
              throw MemLoopException.invalid("task", "this argument is now called intent (the task you are about to do)");
            }
            ObjectNode args = Requests.object(given, "arguments", allowed);
            String ns = namespace(exchange, args);
            Answer a = call.apply(ns, args);
            return CallToolResult.builder().content(List.of(new TextContent(a.text()))).structuredContent(a.structured())
                .isError(false).build();
          } catch (MemLoopException e) {
            status = HttpErrors.status(e);
            return error(e.getMessage());
          } catch (RuntimeException e) {
            status = 500;
            LOG.error("MCP tool {} failed", name, e);
            return error("internal error; the server log has the details");
          } finally {
            metrics.request("mcp", name, "tools/call", status, System.nanoTime() - start);
          }
        })
        .build();
  }

  private String namespace(McpSyncServerExchange exchange, ObjectNode args) {
    ApiKeys.Grant grant = grantOf.apply(exchange);
    if (grant == null) {
      throw new MemLoopException(MemLoopException.Reason.INVALID_ARGUMENT, "authorization", "authorization: no valid API key");
    }
    JsonNode given = args.get("namespace");
    String ns;
    if (given != null && !given.isNull()) {
      if (!given.isTextual()) {
        throw MemLoopException.invalid("namespace", "must be a string");
      }
      ns = Checks.requireNamespace(given.textValue());
    } else {
      ns = grant.soleNamespace().orElse(defaultNamespace);
      if (ns == null) {
        throw MemLoopException.invalid("namespace", "is required: this key may use several namespaces");
      }
    }
    if (!grant.allows(ns)) {
      throw HttpErrors.namespaceNotFound(ns);
    }
    return ns;
  }

  private static void copy(ObjectNode from, String field, ObjectNode to, String as) {
    JsonNode v = from.get(field);
    if (v != null) {
      to.set(as, v);
    }
  }

  private static CallToolResult error(String message) {
    return CallToolResult.builder().content(List.of(new TextContent(message))).isError(true).build();
  }

  @SuppressWarnings("unchecked")
  private static String retrievalText(Map<String, Object> r) {
    List<Map<String, Object>> selected = (List<Map<String, Object>>) r.get("selected");
    StringBuilder sb = new StringBuilder();
    sb.append("retrievalId: ").append(r.get("retrievalId")).append('\n');
    if (selected.isEmpty()) {
      sb.append("No stored experience matches this task yet. Do the task, then call report_outcome with this ")
          .append("retrievalId and remember_experience with what you learned.");
      return sb.toString();
    }
    sb.append(selected.size()).append(" experience(s), most useful first:\n");
    Set<String> seen = new HashSet<>();
    int i = 1;
    for (Map<String, Object> m : selected) {
      if (!seen.add(String.valueOf(m.get("id")))) {
        continue;
      }
      sb.append(i++).append(". [").append(m.get("id")).append(", ").append(m.get("outcome")).append(", utility ")
          .append(String.format(Locale.ROOT, "%.2f", ((Number) m.get("q")).doubleValue())).append("] intent: ")
          .append(m.get("intent")).append("\n   ")
          .append(String.valueOf(m.get("experience")).replace("\n", "\n   ")).append('\n');
    }
    sb.append("When done, call report_outcome with retrievalId ").append(r.get("retrievalId")).append('.');
    return sb.toString();
  }
}
