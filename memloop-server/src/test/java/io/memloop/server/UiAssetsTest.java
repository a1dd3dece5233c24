package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory inspector's files at {@code /ui} (issue 28): the page and the assets it names, with their types and the
 * page's security and cache headers; nothing but the bundled names, whatever the path; only GET.
 */
class UiAssetsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  @TempDir Path dir;
  TestServer s;

  @BeforeEach
  void start() {
    s = new TestServer(dir);
  }

  @AfterEach
  void stop() {
    s.close();
  }

  private RawHttp.Answer get(String path) {
    return RawHttp.send(s.server.port(), "GET", path, Map.of(), new byte[0], TIMEOUT);
  }

  private static void assertSecurityHeaders(RawHttp.Answer a) {
    assertThat(a.headers()).containsEntry("content-security-policy", UiAssets.CSP)
        .containsEntry("x-content-type-options", "nosniff").containsEntry("referrer-policy", "no-referrer")
        .containsEntry("x-frame-options", "DENY");
    assertThat(UiAssets.CSP).contains("script-src 'self'").doesNotContain("unsafe-inline").doesNotContain("unsafe-eval")
        .contains("frame-ancestors 'none'");
  }

  @Test
  void ui_servesTheIndex_asHtml_revalidated_withTheSecurityHeaders_withoutAKey() {
    for (String path : List.of("/ui", "/ui/")) {
      RawHttp.Answer a = get(path);
      assertThat(a.status()).as(path + ": " + a.raw()).isEqualTo(200);
      assertThat(a.headers().get("content-type").replace(" ", "")).isEqualTo("text/html;charset=utf-8");
      assertThat(a.headers()).containsEntry("cache-control", "no-cache");
      assertSecurityHeaders(a);
      assertThat(a.body()).contains("<div id=\"app\">").contains("/ui/assets/");
      assertThat(a.body()).as("no inline script: the CSP would refuse it").doesNotContainPattern("<script(?![^>]*\\bsrc=)[^>]*>");
    }
  }

  @Test
  void everyAssetTheIndexNames_isServed_withItsType_immutable() {
    String index = get("/ui").body();
    Matcher m = Pattern.compile("/ui/assets/([A-Za-z0-9._-]+)").matcher(index);
    int seen = 0;
    while (m.find()) {
      seen++;
      String name = m.group(1);
      RawHttp.Answer a = get("/ui/assets/" + name);
      assertThat(a.status()).as(name).isEqualTo(200);
      assertThat(a.headers().get("content-type").replace(" ", "")).as(name)
          .isEqualTo(name.endsWith(".js") ? "text/javascript;charset=utf-8" : "text/css;charset=utf-8");
      assertThat(a.headers()).containsEntry("cache-control", "public, max-age=31536000, immutable");
      assertSecurityHeaders(a);
      assertThat(a.body()).isNotEmpty();
    }
    assertThat(seen).as("the index names its script and its stylesheet").isEqualTo(2);
    assertThat(UiAssets.load().names()).hasSize(seen);
  }

  @Test
  void unknownAssets_andTraversalAttempts_reachNothingElse() {
    String openApi = get("/v1/openapi.json").body();
    for (String path : List.of("/ui/assets/nope.js", "/ui/assets/assets.txt", "/ui/assets/index.html", "/ui/assets/",
        "/ui/assets/../openapi.json", "/ui/assets/..%2fopenapi.json", "/ui/assets/%2e%2e/openapi.json", "/ui/assets/%2e%2e",
        "/ui/assets/..", "/ui/assets/%2E%2E%2F%2E%2E%2Fopenapi.json", "/ui/assets/..%5c..%5copenapi.json", "/ui/../v1/openapi.json/x",
        "/ui/index.html", "/ui/assets.txt", "/ui/assets/index-x.js%00", "/ui/assets/./index.html")) {
      RawHttp.Answer a = get(path);
      assertThat(a.status()).as(path + " -> " + a.raw()).isBetween(400, 499);
      TrustBoundaryTest.assertClean(a);
      assertThat(a.body()).as(path).doesNotContain("openapi\":").doesNotContain("<div id=\"app\">");
      assertThat(openApi).isNotEqualTo(a.body());
    }
    RawHttp.Answer unknown = get("/ui/assets/nope.js");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(TrustBoundaryTest.json(unknown.body()).at("/error/code").asText()).isEqualTo("not_found");
  }

  @Test
  void onlyGet_isAnswered_otherMethodsAre405WithAllow() {
    String asset = UiAssets.load().names().iterator().next();
    for (String path : List.of("/ui", "/ui/", "/ui/assets/" + asset)) {
      for (String method : List.of("HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")) {
        byte[] body = method.equals("POST") || method.equals("PUT") || method.equals("PATCH")
            ? "{}".getBytes(StandardCharsets.UTF_8) : new byte[0];
        RawHttp.Answer a = RawHttp.send(s.server.port(), method, path, Map.of("Content-Type", "application/json"), body, TIMEOUT);
        assertThat(a.status()).as(method + " " + path + ": " + a.raw()).isEqualTo(405);
        assertThat(a.headers()).as(method + " " + path).containsEntry("allow", "GET");
      }
    }
  }

  @Test
  void anotherSitesPage_cannotLoadThePageEither() {
    RawHttp.Answer a = RawHttp.send(s.server.port(), "GET", "/ui", Map.of("Origin", "http://evil.example"), new byte[0], TIMEOUT);
    assertThat(a.status()).isEqualTo(403);
    RawHttp.Answer rebound = RawHttp.send(s.server.port(), "GET", "/ui", Map.of("Host", "evil.example"), new byte[0], TIMEOUT);
    assertThat(rebound.status()).isEqualTo(421);
  }

  @Test
  void contentTypes_byExtension() {
    assertThat(UiAssets.contentType("a.JS")).isEqualTo("text/javascript; charset=utf-8");
    assertThat(UiAssets.contentType("a.css")).isEqualTo("text/css; charset=utf-8");
    assertThat(UiAssets.contentType("index.html")).isEqualTo("text/html; charset=utf-8");
    assertThat(UiAssets.contentType("f.woff2")).isEqualTo("font/woff2");
    assertThat(UiAssets.contentType("noext")).isEqualTo("application/octet-stream");
  }
}
