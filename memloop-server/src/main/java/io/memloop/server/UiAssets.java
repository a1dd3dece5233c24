package io.memloop.server;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The memory inspector's files, served at {@code /ui}: {@code index.html} and the content-hashed files under
 * {@code assets/} that the {@code ui/} npm project builds into this module's resources (committed, so the Maven
 * build needs no Node). The build also writes {@code ui/assets.txt}, the asset names one a line; they are read
 * once, here, and a request's path only ever picks one of them by name from a map — it never becomes a file or
 * resource path, so {@code ..} or an escape cannot reach anything else.
 *
 * <p>Every answer carries the page's security headers: a Content-Security-Policy that allows only this server's
 * own scripts, styles and API calls (no inline script, no other site, no framing), {@code nosniff} and no referrer.
 * The assets' names change with their content, so they are cached as immutable; {@code index.html}, which names
 * them, is revalidated every time. Immutable after construction; safe for concurrent use.
 */
final class UiAssets {
  static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      + "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  static final String IMMUTABLE = "public, max-age=31536000, immutable";
  static final String REVALIDATE = "no-cache";
  private static final String DIR = "ui/";
  /** What the build may name an asset (scripts/manifest.mjs checks the same). */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

  /** One file: its bytes and its {@code Content-Type}. */
  record Asset(byte[] bytes, String contentType) {}

  private final Asset index;
  private final Map<String, Asset> assets;

  private UiAssets(Asset index, Map<String, Asset> assets) {
    this.index = index;
    this.assets = Map.copyOf(assets);
  }

  /**
   * The bundled files.
   *
   * @throws IllegalStateException if index.html, assets.txt or a file it lists is missing from the build
   */
  static UiAssets load() {
    Asset index = new Asset(read(DIR + "index.html"), contentType("index.html"));
    Map<String, Asset> assets = new LinkedHashMap<>();
    for (String line : new String(read(DIR + "assets.txt"), StandardCharsets.UTF_8).split("\n")) {
      String name = line.strip();
      if (name.isEmpty()) {
        continue;
      }
      if (!NAME.matcher(name).matches() || name.startsWith(".")) {
        throw new IllegalStateException("ui/assets.txt lists '" + name + "', not a plain file name");
      }
      assets.put(name, new Asset(read(DIR + "assets/" + name), contentType(name)));
    }
    return new UiAssets(index, assets);
  }

  Asset index() {
    return index;
  }

  /** The asset called {@code name}, if the build made one. */
  Optional<Asset> asset(String name) {
    return Optional.ofNullable(assets.get(name));
  }

  /** The names of the bundled assets. */
  java.util.Set<String> names() {
    return assets.keySet();
  }

  /** Answers {@code ctx} with {@code a} and the page's headers; {@code immutable} for a content-hashed asset. */
  static void answer(Context ctx, Asset a, boolean immutable) {
    securityHeaders(ctx);
    ctx.header("Cache-Control", immutable ? IMMUTABLE : REVALIDATE);
    ctx.status(200).contentType(a.contentType());
    ctx.res().setContentLength(a.bytes().length);
    try {
      ctx.res().getOutputStream().write(a.bytes());
    } catch (IOException e) {
      // the client went away: nothing left to answer to
    }
  }

  static void securityHeaders(Context ctx) {
    ctx.header("Content-Security-Policy", CSP);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Cross-Origin-Opener-Policy", "same-origin");
    ctx.header("Cross-Origin-Resource-Policy", "same-origin");
  }

  static String contentType(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    int dot = n.lastIndexOf('.');
    return switch (dot < 0 ? "" : n.substring(dot + 1)) {
      case "html" -> "text/html; charset=utf-8";
      case "js", "mjs" -> "text/javascript; charset=utf-8";
      case "css" -> "text/css; charset=utf-8";
      case "svg" -> "image/svg+xml";
      case "png" -> "image/png";
      case "woff2" -> "font/woff2";
      case "json" -> "application/json";
      default -> "application/octet-stream";
    };
  }

  private static byte[] read(String resource) {
    try (InputStream in = UiAssets.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("resource " + resource + " is missing from the build (ui/: npm run build)");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
