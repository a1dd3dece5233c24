package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.MemLoop;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.store.InMemoryStore;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * README's table of MCP tools is the tools' own input schemas, rendered: a tool or an argument added, renamed or
 * re-described without the README following fails here. Run with {@code -Dmemloop.writeDocs=true} to rewrite the
 * table from the schemas (then review the diff).
 */
class McpToolsReadmeTest {
  static final String BEGIN = "<!-- mcp-tools: generated from the tools' schemas by McpToolsReadmeTest -->";
  static final String END = "<!-- /mcp-tools -->";

  @Test
  void readmeListsEveryToolWithItsArguments() throws IOException {
    Path readme = Path.of("..", "README.md");
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    int begin = text.indexOf(BEGIN);
    int end = text.indexOf(END);
    assertThat(begin).as("README has the MCP tool table between %s and %s", BEGIN, END).isNotNegative();
    assertThat(end).isGreaterThan(begin);
    String expected = table(tools());
    String actual = text.substring(begin + BEGIN.length(), end);
    if (Boolean.getBoolean("memloop.writeDocs") && !actual.equals(expected)) {
      Files.writeString(readme, text.substring(0, begin + BEGIN.length()) + expected + text.substring(end), StandardCharsets.UTF_8);
      actual = expected;
    }
    assertThat(actual).as("README's MCP tool table (rerun with -Dmemloop.writeDocs=true to regenerate it)").isEqualTo(expected);
  }

  @Test
  void theTableShowsEachArgumentsTypeRequirementAndMeaning() {
    String t = table(tools());
    assertThat(t).contains("| `retrieve_experiences` | `intent` | string | yes |");
    assertThat(t).contains("| `report_outcome` | `outcome` | `success` \\| `failure` | no |");
    assertThat(t).contains("| `report_outcome` | `usedMemoryIds` | array of string | no |");
  }

  private static List<Tool> tools() {
    MemLoop loop = MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).build();
    try (loop; Metrics metrics = new Metrics(loop.store(), null, false)) {
      Service service = new Service(loop, ServerOptions.defaults(), metrics, null);
      return new McpTools(service, metrics, exchange -> new ApiKeys.Grant("t", Set.of(ApiKeys.ALL)), "default")
          .tools().stream().map(SyncToolSpecification::tool).toList();
    }
  }

  /** One row per argument, tools in the server's order, arguments in the schema's. */
  static String table(List<Tool> tools) {
    StringBuilder sb = new StringBuilder("\n\n| tool | argument | type | required | meaning |\n|---|---|---|---|---|\n");
    for (Tool tool : tools) {
      @SuppressWarnings("unchecked")
      Map<String, Object> properties = (Map<String, Object>) tool.inputSchema().get("properties");
      List<?> required = tool.inputSchema().get("required") instanceof List<?> r ? r : List.of();
      for (var p : properties.entrySet()) {
        @SuppressWarnings("unchecked")
        Map<String, Object> schema = (Map<String, Object>) p.getValue();
        sb.append("| `").append(tool.name()).append("` | `").append(p.getKey()).append("` | ").append(type(schema))
            .append(" | ").append(required.contains(p.getKey()) ? "yes" : "no").append(" | ")
            .append(cell(String.valueOf(schema.getOrDefault("description", "")))).append(" |\n");
      }
    }
    return sb.append('\n').toString();
  }

  private static String type(Map<String, Object> schema) {
    if (schema.get("enum") instanceof List<?> values) {
      return String.join(" \\| ", values.stream().map(v -> "`" + v + "`").toList());
    }
    if ("array".equals(schema.get("type")) && schema.get("items") instanceof Map<?, ?> items) {
      return "array of " + items.get("type");
    }
    return String.valueOf(schema.get("type"));
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }
}
