// Error answers become MemLoopError subclasses with the body's code, field and message; the key never shows.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { inspect } from "node:util";
import {
  ConflictError,
  ForbiddenError,
  InvalidArgumentError,
  MemLoopClient,
  MemLoopError,
  NotFoundError,
  PayloadTooLargeError,
  ServerError,
  UnauthorizedError,
  UnavailableError,
} from "../../src/index.js";
import { Stub } from "../support/stub.js";

const KEY = "mlk_secret-key-do-not-show-0123";
let stub: Stub | undefined;

afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

function body(code: string, field: string, message: string) {
  return { error: { code, field, message } };
}

describe("errors", () => {
  const cases = [
    [400, "invalid_argument", "reward", InvalidArgumentError],
    [401, "unauthorized", "authorization", UnauthorizedError],
    [403, "forbidden", "origin", ForbiddenError],
    [404, "not_found", "memoryId", NotFoundError],
    [409, "conflict", "retrievalId", ConflictError],
    [413, "too_large", "body", PayloadTooLargeError],
    [415, "unsupported_media_type", "content-type", MemLoopError],
    [500, "internal", "", ServerError],
    [502, "embedding_failed", "intent", ServerError],
    [503, "store_unavailable", "", UnavailableError],
  ] as const;
  for (const [status, code, field, type] of cases) {
    it(`${status} ${code} -> ${type.name} with status, code, field and message`, async () => {
      stub = await Stub.start({ status, body: body(code, field, `${field}: it went wrong`) });
      const c = new MemLoopClient({ baseUrl: stub.url, apiKey: KEY, namespace: "team-a", retries: 0 });
      await assert.rejects(c.reward({ retrievalId: "r_1", reward: 2 }), (e: unknown) => {
        assert.ok(e instanceof type, `a ${type.name}, got ${String(e)}`);
        assert.ok(e instanceof MemLoopError);
        assert.equal(e.status, status);
        assert.equal(e.code, code);
        assert.equal(e.field, field);
        assert.equal(e.message, `${field}: it went wrong`);
        assert.equal(e.name, type.name);
        return true;
      });
    });
  }

  it("an answer that is not the error body (a proxy's page) keeps its status and a short text", async () => {
    stub = await Stub.start({ status: 502, body: "<html><body>Bad Gateway</body></html>", headers: { "Content-Type": "text/html" } });
    const c = new MemLoopClient({ baseUrl: stub.url, apiKey: KEY, namespace: "team-a", retries: 0 });
    await assert.rejects(c.stats(), (e: unknown) =>
      e instanceof ServerError && e.status === 502 && e.code === "http_502" && e.field === ""
      && e.message === "HTTP 502: <html><body>Bad Gateway</body></html>");
  });

  it("ready while stopping: an UnavailableError with the server's status word", async () => {
    stub = await Stub.start({ status: 503, body: { status: "stopping" } });
    const c = new MemLoopClient({ baseUrl: stub.url, retries: 0 });
    await assert.rejects(c.ready(), (e: unknown) =>
      e instanceof UnavailableError && e.code === "unavailable" && e.message === "HTTP 503: stopping");
  });

  it("a 2xx answer that is not JSON is an error, not a crash", async () => {
    stub = await Stub.start({ status: 200, body: "not json", headers: { "Content-Type": "text/plain" } });
    const c = new MemLoopClient({ baseUrl: stub.url, namespace: "team-a" });
    await assert.rejects(c.stats(), (e: unknown) => e instanceof MemLoopError && e.code === "bad_response" && e.status === 200);
  });

  it("the API key never shows: not in error messages (even if a server echoes it), not in inspect or JSON of the client", async () => {
    stub = await Stub.start({ status: 401, body: body("unauthorized", "authorization", `not a valid API key: Bearer ${KEY}`) });
    const c = new MemLoopClient({ baseUrl: stub.url, apiKey: KEY, namespace: "team-a" });
    await assert.rejects(c.stats(), (e: unknown) => {
      assert.ok(e instanceof UnauthorizedError);
      assert.ok(!e.message.includes(KEY), e.message);
      assert.ok(!inspect(e).includes(KEY));
      assert.equal(e.message, "not a valid API key: Bearer [redacted]");
      return true;
    });
    assert.ok(!inspect(c).includes(KEY), inspect(c));
    assert.ok(!JSON.stringify(c).includes(KEY));
    assert.equal(stub.one.headers["authorization"], `Bearer ${KEY}`, "the key is sent, only never shown");
  });
});
