/**
 * {@code memloop serve} and {@code memloop mcp}: the engine as an HTTP/JSON API and an MCP server ({@link
 * io.memloop.server.MemLoopServer}, {@link io.memloop.server.McpTools}). This package owns transport only — strict
 * request reading ({@link io.memloop.server.Requests}), one JSON shape per value ({@link io.memloop.server.Json}),
 * API keys and namespaces, opaque ids, error bodies and metrics; every operation is one engine call in {@link
 * io.memloop.server.Service}.
 */
@NullMarked
package io.memloop.server;

import org.jspecify.annotations.NullMarked;
