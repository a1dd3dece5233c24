// Retries (GET, PUT, DELETE only; bounded) and timeouts (AbortSignal), against a stub server.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import {
  ConnectionError,
  InvalidArgumentError,
  MemLoopClient,
  MemLoopTimeoutError,
  UnavailableError,
} from "../../src/index.js";
import { Stub, closedPort, memory } from "../support/stub.js";

let stub: Stub | undefined;

afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const unavailable = { status: 503, body: { error: { code: "store_unavailable", field: "", message: "store: busy" } } } as const;

function counting(): { fetch: typeof fetch; calls: () => number } {
  let n = 0;
  return { fetch: (input, init) => (n++, fetch(input, init)), calls: () => n };
}

describe("retries", () => {
  it("a GET answered 503 is sent again, and succeeds once the server answers", async () => {
    stub = await Stub.start(unavailable, unavailable, { status: 200, body: memory("m_1") });
    const c = new MemLoopClient({ baseUrl: stub.url, namespace: "team-a", retries: 2, retryDelayMs: 1 });
    assert.equal((await c.get("m_1")).id, "m_1");
    assert.equal(stub.received.length, 3);
  });

  it("retries are bounded: retries + 1 attempts, then the last error", async () => {
    stub = await Stub.start(unavailable);
    const c = new MemLoopClient({ baseUrl: stub.url, namespace: "team-a", retries: 3, retryDelayMs: 1 });
    await assert.rejects(c.stats(), UnavailableError);
    assert.equal(stub.received.length, 4);
  });

  it("PUT and DELETE are retried too", async () => {
    stub = await Stub.start(unavailable, { status: 200, body: { namespace: "team-a", recorded: true, knobs: {} } }, unavailable, { status: 204 });
    const c = new MemLoopClient({ baseUrl: stub.url, namespace: "team-a", retryDelayMs: 1 });
    await c.configure({ preset: "memrl" });
    await c.forget("m_1");
    assert.deepEqual(stub.received.map((r) => r.method), ["PUT", "PUT", "DELETE", "DELETE"]);
    assert.equal(stub.received[1]!.body, stub.received[0]!.body);
  });

  for (const [name, call] of [
    ["retrieve", (c: MemLoopClient) => c.retrieve("x")],
    ["reward", (c: MemLoopClient) => c.reward({ retrievalId: "r_1", reward: 1 })],
    ["remember", (c: MemLoopClient) => c.remember({ intent: "x", experience: "y", outcome: "success" })],
    ["endEpisode", (c: MemLoopClient) => c.endEpisode({ retrievalId: "r_1", reward: 1, intent: "x", experience: "y", outcome: "success" })],
    ["edit (PATCH)", (c: MemLoopClient) => c.edit("m_1", "y")],
  ] as const) {
    it(`${name} is never sent twice, not even after a 503`, async () => {
      stub = await Stub.start(unavailable, { status: 200, body: {} });
      const c = new MemLoopClient({ baseUrl: stub.url, namespace: "team-a", retries: 5, retryDelayMs: 1 });
      await assert.rejects(call(c), UnavailableError);
      assert.equal(stub.received.length, 1);
    });
  }

  it("a 4xx is not retried, even on a GET", async () => {
    stub = await Stub.start({ status: 404, body: { error: { code: "not_found", field: "memoryId", message: "no" } } }, { status: 200, body: memory("m_1") });
    const c = new MemLoopClient({ baseUrl: stub.url, namespace: "team-a", retries: 3, retryDelayMs: 1 });
    await assert.rejects(c.get("m_1"));
    assert.equal(stub.received.length, 1);
  });

  it("a connection failure: a GET is tried retries + 1 times, a POST once; both a ConnectionError", async () => {
    const port = await closedPort();
    const get = counting();
    await assert.rejects(new MemLoopClient({ baseUrl: `http://127.0.0.1:${port}`, namespace: "team-a", retries: 2, retryDelayMs: 1, fetch: get.fetch }).stats(),
      (e: unknown) => e instanceof ConnectionError && e.status === 0 && e.code === "connection_failed");
    assert.equal(get.calls(), 3);
    const post = counting();
    await assert.rejects(new MemLoopClient({ baseUrl: `http://127.0.0.1:${port}`, namespace: "team-a", retries: 2, retryDelayMs: 1, fetch: post.fetch }).retrieve("x"),
      ConnectionError);
    assert.equal(post.calls(), 1);
  });
});

describe("timeouts", () => {
  it("no answer within timeoutMs: a MemLoopTimeoutError; a POST is not sent again", async () => {
    stub = await Stub.start("hang");
    const c = new MemLoopClient({ baseUrl: stub.url, namespace: "team-a", timeoutMs: 100, retries: 3, retryDelayMs: 1 });
    await assert.rejects(c.retrieve("x"), (e: unknown) => e instanceof MemLoopTimeoutError && e.code === "timeout" && e.status === 0
      && e.message.includes("no answer within 100 ms"));
    assert.equal(stub.received.length, 1);
  });

  it("a GET that times out is tried again, and succeeds when the server answers", async () => {
    stub = await Stub.start("hang", { status: 200, body: { status: "ok" } });
    const c = new MemLoopClient({ baseUrl: stub.url, timeoutMs: 100, retries: 1, retryDelayMs: 1 });
    assert.deepEqual(await c.health(), { status: "ok" });
    assert.equal(stub.received.length, 2);
  });

  it("a call's own timeoutMs wins over the client's", async () => {
    stub = await Stub.start("hang");
    const c = new MemLoopClient({ baseUrl: stub.url, timeoutMs: 60_000, retries: 0 });
    await assert.rejects(c.health({ timeoutMs: 50 }), MemLoopTimeoutError);
    await assert.rejects(c.health({ timeoutMs: 0 }), InvalidArgumentError);
  });

  it("the caller's AbortSignal stops the call and its retries with the signal's reason", async () => {
    stub = await Stub.start("hang");
    const c = new MemLoopClient({ baseUrl: stub.url, timeoutMs: 60_000, retries: 5, retryDelayMs: 1 });
    const controller = new AbortController();
    const call = c.health({ signal: controller.signal });
    await waitFor(() => stub!.received.length === 1);
    controller.abort(new Error("the user gave up"));
    await assert.rejects(call, { message: "the user gave up" });
    assert.equal(stub.received.length, 1);
    await assert.rejects(c.health({ signal: AbortSignal.abort(new Error("already")) }), { message: "already" });
    assert.equal(stub.received.length, 1, "an aborted signal sends nothing");
  });
});

/** Resolves once `condition` holds (checked on every turn of the event loop; the test runner's timeout bounds it). */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
