package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checked-in OpenAPI document against the real server: every documented operation is called, its
 * answer's status must be documented for it and its body must validate against the documented schema;
 * every request sent validates against the documented request schema.
 */
class OpenApiContractTest {
  @TempDir Path dir;
  TestServer s;
  JsonNode doc;
  final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  final Set<String> called = new HashSet<>();

  @BeforeEach
  void start() throws Exception {
    s = new TestServer(dir, ServerOptions.defaults().withPort(0).withActivity(new ServerActivity()));
    try (InputStream in = MemLoopServer.class.getResourceAsStream("openapi.json")) {
      doc = Json.MAPPER.readTree(in);
    }
  }

  @AfterEach
  void stop() {
    s.close();
  }

  @Test
  void theServedDocumentIsTheCheckedInOne() throws Exception {
    Path checkedIn = Path.of("src/main/resources/io/memloop/server/openapi.json");
    assertThat(Json.MAPPER.readTree(s.get("/v1/openapi.json", null).text())).isEqualTo(Json.MAPPER.readTree(Files.readString(checkedIn)));
  }

  @Test
  void everyOperationAnswersAsDocumented() {
    String ns = "/v1/namespaces/team-a";
    call("GET", "/v1/health", "/v1/health", null, null);
    call("GET", "/v1/ready", "/v1/ready", null, null);
    call("GET", "/v1/openapi.json", "/v1/openapi.json", null, null);
    call("GET", "/metrics", "/metrics", null, null);
    JsonNode m = call("POST", "/v1/namespaces/{ns}/memories", ns + "/memories", "a",
        "{\"intent\":\"deploy the api\",\"experience\":\"make deploy\",\"outcome\":\"success\"}");
    String id = m.get("id").asText();
    JsonNode r = call("POST", "/v1/namespaces/{ns}/retrieve", ns + "/retrieve", "a", "{\"intent\":\"deploy the api\"}");
    call("POST", "/v1/namespaces/{ns}/rewards", ns + "/rewards", "a",
        "{\"retrievalId\":\"" + r.get("retrievalId").asText() + "\",\"reward\":-1,\"usedMemoryIds\":[\"" + id + "\"]}");
    call("GET", "/v1/namespaces/{ns}/memories", ns + "/memories?limit=5", "a", null);
    JsonNode page = call("GET", "/v1/namespaces/{ns}/memories", ns + "/memories?limit=1&text=deploy&outcome=success,failure"
        + "&minQ=-1&maxQ=1&minVisits=0&maxVisits=9&createdFrom=2000-01-01T00:00:00Z&sort=q&order=desc", "a", null);
    assertThat(page.get("total").asLong()).isEqualTo(1);
    call("PATCH", "/v1/namespaces/{ns}/memories/{id}", ns + "/memories/" + id, "a", "{\"experience\":\"make deploy ENV=prod\"}");
    JsonNode r2 = call("POST", "/v1/namespaces/{ns}/retrieve", ns + "/retrieve", "a", "{\"intent\":\"deploy the api\"}");
    call("POST", "/v1/namespaces/{ns}/episodes", ns + "/episodes", "a", "{\"retrievalId\":\"" + r2.get("retrievalId").asText()
        + "\",\"reward\":1,\"intent\":\"deploy the api\",\"experience\":\"make deploy, then check /health\",\"outcome\":\"success\"}");
    call("POST", "/v1/namespaces/{ns}/episodes", ns + "/episodes", "a", "{\"retrievalId\":\"" + r2.get("retrievalId").asText()
        + "\",\"reward\":1,\"intent\":\"deploy the api\",\"experience\":\"again\",\"outcome\":\"success\"}");
    call("GET", "/v1/namespaces/{ns}/memories", ns + "/memories?minQ=abc", "a", null);
    call("GET", "/v1/namespaces/{ns}/memories/{id}", ns + "/memories/" + id, "a", null);
    call("GET", "/v1/namespaces/{ns}/stats", ns + "/stats", "a", null);
    call("GET", "/v1/namespaces/{ns}/config", ns + "/config", "a", null);
    call("PUT", "/v1/namespaces/{ns}/config", ns + "/config", "a", "{\"preset\":\"default\",\"knobs\":{\"k2\":4}}");
    call("GET", "/v1/namespaces", "/v1/namespaces", "a", null);
    // the inspector's routes
    call("GET", "/v1/namespaces/{ns}/overview", ns + "/overview", "a", null);
    call("GET", "/v1/namespaces/{ns}/events", ns + "/events?after=0&limit=10", "a", null);
    call("GET", "/v1/namespaces/{ns}/events", ns + "/events?limit=0", "a", null);
    call("GET", "/v1/namespaces/{ns}/memories/{id}/history", ns + "/memories/" + id + "/history", "a", null);
    call("GET", "/v1/namespaces/{ns}/memories/{id}/neighbours", ns + "/memories/" + id + "/neighbours?limit=3", "a", null);
    call("GET", "/v1/namespaces/{ns}/memories/{id}/neighbours", ns + "/memories/mZZZZ/neighbours", "a", null);
    JsonNode x = call("POST", "/v1/namespaces/{ns}/explain", ns + "/explain", "a", "{\"intent\":\"deploy the api\"}");
    assertThat(x.get("candidates")).isNotEmpty();
    call("POST", "/v1/namespaces/{ns}/explain", ns + "/explain", "a", "{\"intent\":\"\"}");
    call("GET", "/v1/namespaces/{ns}/report", ns + "/report", "a", null);
    call("DELETE", "/v1/namespaces/{ns}/memories/{id}", ns + "/memories/" + id, "a", null);
    // documented error answers
    call("GET", "/v1/namespaces/{ns}/memories/{id}", ns + "/memories/" + id, "a", null);
    call("POST", "/v1/namespaces/{ns}/retrieve", ns + "/retrieve", null, "{\"intent\":\"x\"}");
    call("POST", "/v1/namespaces/{ns}/retrieve", "/v1/namespaces/team-b/retrieve", "a", "{\"intent\":\"x\"}");
    call("POST", "/v1/namespaces/{ns}/rewards", ns + "/rewards", "a", "{\"retrievalId\":\"r1\",\"reward\":\"high\"}");

    List<String> documented = new ArrayList<>();
    doc.get("paths").fields().forEachRemaining(p -> p.getValue().fieldNames().forEachRemaining(
        method -> documented.add(method.toUpperCase(java.util.Locale.ROOT) + " " + p.getKey())));
    assertThat(called).containsExactlyInAnyOrderElementsOf(documented);
  }

  /** Calls {@code method path}, checks request and answer against operation {@code template}; returns the body. */
  private JsonNode call(String method, String template, String path, String key, String body) {
    JsonNode op = doc.at("/paths/" + escape(template) + "/" + method.toLowerCase(java.util.Locale.ROOT));
    assertThat(op.isMissingNode()).as(method + " " + template + " is documented").isFalse();
    called.add(method + " " + template);
    TestServer.Reply reply = s.send(method, path, key, body);
    boolean invalidRequest = false;
    if (body != null) {
      JsonNode reqSchema = op.at("/requestBody/content/application~1json/schema");
      assertThat(reqSchema.isMissingNode()).as("request schema of " + method + " " + template).isFalse();
      invalidRequest = !validate(reqSchema, read(body)).isEmpty();
    }
    String status = Integer.toString(reply.status());
    JsonNode response = op.at("/responses/" + status);
    assertThat(response.isMissingNode()).as(method + " " + path + " answered " + status + ", undocumented: " + reply.text()).isFalse();
    if (invalidRequest) {
      assertThat(reply.status()).as("a request the schema rejects is rejected").isEqualTo(400);
    }
    JsonNode content = response.get("content");
    if (content == null) {
      assertThat(reply.text()).isEmpty();
      return null;
    }
    String type = content.fieldNames().next();
    assertThat(reply.raw().headers().firstValue("Content-Type").orElse("")).startsWith(type);
    if (!type.equals("application/json")) {
      return null;
    }
    List<Error> errors = validate(content.get(type).get("schema"), reply.json());
    assertThat(errors).as(method + " " + path + " -> " + status + ": " + reply.text()).isEmpty();
    return reply.json();
  }

  private List<Error> validate(JsonNode schemaNode, JsonNode instance) {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.set("components", doc.get("components"));
    root.setAll((ObjectNode) schemaNode.deepCopy());
    Schema schema = registry.getSchema(root);
    return schema.validate(instance);
  }

  private static JsonNode read(String json) {
    try {
      return Json.MAPPER.readTree(json);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static String escape(String pointer) {
    return pointer.replace("~", "~0").replace("/", "~1");
  }
}
