// What each client method sends (method, path, query, headers, body) and how it reads the answer, against a
// stub server.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { InvalidArgumentError, MemLoopClient, type EpisodeRequest } from "../../src/index.js";
import { Stub, memory } from "../support/stub.js";

const KEY = "mlk_unit-test-key-0123456789";
let stub: Stub | undefined;

afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function client(...replies: Parameters<typeof Stub.start>): Promise<{ c: MemLoopClient; s: Stub }> {
  stub = await Stub.start(...replies);
  return { c: new MemLoopClient({ baseUrl: stub.url, apiKey: KEY, namespace: "team-a", retryDelayMs: 1 }), s: stub };
}

describe("requests", () => {
  it("retrieve: POST .../retrieve with the intent, the key and a JSON content type", async () => {
    const answer = { retrievalId: "r_1", namespace: "team-a", candidates: [], selected: [] };
    const { c, s } = await client({ status: 200, body: answer });
    assert.deepEqual(await c.retrieve("restart nginx"), answer);
    assert.equal(s.one.method, "POST");
    assert.equal(s.one.url, "/v1/namespaces/team-a/retrieve");
    assert.equal(s.one.headers["authorization"], `Bearer ${KEY}`);
    assert.equal(s.one.headers["content-type"], "application/json");
    assert.equal(s.one.headers["accept"], "application/json");
    assert.deepEqual(JSON.parse(s.one.body), { intent: "restart nginx" });
  });

  it("retrieve with an embedding sends it as given", async () => {
    const { c, s } = await client({ status: 200, body: {} });
    await c.retrieve({ embedding: [0.5, -1] });
    assert.deepEqual(JSON.parse(s.one.body), { embedding: [0.5, -1] });
  });

  it("reward: POST .../rewards with usedMemoryIds and nextRetrievalId", async () => {
    const { c, s } = await client({ status: 200, body: { retrievalId: "r_1", reward: 1, updated: [] } });
    await c.reward({ retrievalId: "r_1", reward: 1, usedMemoryIds: ["m_1"], nextRetrievalId: "r_2" });
    assert.equal(s.one.url, "/v1/namespaces/team-a/rewards");
    assert.deepEqual(JSON.parse(s.one.body), { retrievalId: "r_1", reward: 1, usedMemoryIds: ["m_1"], nextRetrievalId: "r_2" });
  });

  it("remember: POST .../memories, answered 201 with the memory", async () => {
    const { c, s } = await client({ status: 201, body: memory("m_1") });
    const m = await c.remember({ intent: "restart nginx", experience: "systemctl restart nginx", outcome: "success", retrievalId: "r_1" });
    assert.equal(m.id, "m_1");
    assert.deepEqual(m.parts, ["systemctl restart nginx"]);
    assert.equal(s.one.method, "POST");
    assert.equal(s.one.url, "/v1/namespaces/team-a/memories");
    assert.deepEqual(JSON.parse(s.one.body),
      { intent: "restart nginx", experience: "systemctl restart nginx", outcome: "success", retrievalId: "r_1" });
  });

  it("endEpisode: POST .../episodes with the reward and the experience in one body", async () => {
    const answer = { reward: { retrievalId: "r_1", reward: -1, updated: [] }, memory: memory("m_2", { outcome: "failure" }) };
    const { c, s } = await client({ status: 201, body: answer });
    const request = { retrievalId: "r_1", reward: -1, usedMemoryIds: ["m_1"], intent: "restart nginx",
      experience: "service nginx restart hangs", outcome: "failure" } satisfies EpisodeRequest;
    assert.deepEqual(await c.endEpisode(request), answer);
    assert.equal(s.one.method, "POST");
    assert.equal(s.one.url, "/v1/namespaces/team-a/episodes");
    assert.deepEqual(JSON.parse(s.one.body), request);
  });

  it("get, edit, forget: GET, PATCH, DELETE .../memories/{id}, the id escaped", async () => {
    const { c, s } = await client({ status: 200, body: memory("m_1") }, { status: 200, body: memory("m_1") }, { status: 204 });
    await c.get("m_1/..?x");
    await c.edit("m_1", "systemctl restart nginx && curl /healthz");
    assert.equal(await c.forget("m_1"), undefined);
    assert.deepEqual(s.received.map((r) => `${r.method} ${r.url}`), [
      "GET /v1/namespaces/team-a/memories/m_1%2F..%3Fx",
      "PATCH /v1/namespaces/team-a/memories/m_1",
      "DELETE /v1/namespaces/team-a/memories/m_1",
    ]);
    assert.deepEqual(JSON.parse(s.received[1]!.body), { experience: "systemctl restart nginx && curl /healthz" });
    assert.equal(s.received[0]!.headers["content-type"], undefined, "no body, no content type");
    assert.equal(s.received[2]!.body, "");
  });

  it("list: every filter as a query parameter; outcomes comma-separated, dates as ISO instants", async () => {
    const { c, s } = await client({ status: 200, body: { namespace: "team-a", memories: [], next: null, total: 0 } });
    await c.list({
      limit: 50, after: "c_abc", text: "nginx restart", outcome: ["success", "unknown"], minQ: -0.5, maxQ: 1,
      minVisits: 1, maxVisits: 9, createdFrom: new Date("2026-01-02T03:04:05Z"), createdTo: "2026-02-01T00:00:00Z",
      updatedFrom: new Date(0), updatedTo: "2026-03-01T00:00:00Z", sort: "q", order: "desc",
    });
    const url = new URL(s.one.url, "http://x");
    assert.equal(url.pathname, "/v1/namespaces/team-a/memories");
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      limit: "50", after: "c_abc", text: "nginx restart", outcome: "success,unknown", minQ: "-0.5", maxQ: "1",
      minVisits: "1", maxVisits: "9", createdFrom: "2026-01-02T03:04:05.000Z", createdTo: "2026-02-01T00:00:00Z",
      updatedFrom: "1970-01-01T00:00:00.000Z", updatedTo: "2026-03-01T00:00:00Z", sort: "q", order: "desc",
    });
  });

  it("list without filters sends no query string; a single outcome is sent as is", async () => {
    const { c, s } = await client({ status: 200, body: { namespace: "team-a", memories: [], next: null, total: 0 } });
    await c.list();
    await c.list({ outcome: "failure", text: undefined });
    assert.deepEqual(s.received.map((r) => r.url), ["/v1/namespaces/team-a/memories", "/v1/namespaces/team-a/memories?outcome=failure"]);
  });

  it("list refuses an unknown parameter or an invalid Date before sending, naming it", async () => {
    const { c, s } = await client();
    await assert.rejects(c.list({ sortBy: "q" } as never), (e: unknown) =>
      e instanceof InvalidArgumentError && e.field === "sortBy" && e.status === 0);
    await assert.rejects(c.list({ createdFrom: new Date("nope") }), (e: unknown) =>
      e instanceof InvalidArgumentError && e.field === "createdFrom");
    assert.equal(s.received.length, 0);
  });

  it("listAll follows next across pages with the same filters, and stops at the last page", async () => {
    const { c, s } = await client(
      { status: 200, body: { namespace: "team-a", memories: [memory("m_1"), memory("m_2")], next: "c_2", total: 3 } },
      { status: 200, body: { namespace: "team-a", memories: [memory("m_3")], next: null, total: 3 } },
    );
    const ids: string[] = [];
    for await (const m of c.listAll({ limit: 2, outcome: "success" })) {
      ids.push(m.id);
    }
    assert.deepEqual(ids, ["m_1", "m_2", "m_3"]);
    assert.deepEqual(s.received.map((r) => r.url), [
      "/v1/namespaces/team-a/memories?limit=2&outcome=success",
      "/v1/namespaces/team-a/memories?limit=2&after=c_2&outcome=success",
    ]);
  });

  it("stats, config, configure, namespaces, health, ready, openapi, metrics", async () => {
    const { c, s } = await client(
      { status: 200, body: { namespace: "team-a", memories: 0, model: { id: "hashing", dimension: 256 } } },
      { status: 200, body: { namespace: "team-a", recorded: false, knobs: {} } },
      { status: 200, body: { namespace: "team-a", recorded: true, knobs: { k1: "10" } } },
      { status: 200, body: { namespaces: ["team-a"] } },
      { status: 200, body: { status: "ok" } },
      { status: 200, body: { status: "ready" } },
      { status: 200, body: { openapi: "3.1.0" } },
      { status: 200, body: "# HELP x\nx 1\n", headers: { "Content-Type": "text/plain" } },
    );
    assert.equal((await c.stats()).model?.id, "hashing");
    assert.equal((await c.config()).recorded, false);
    assert.deepEqual((await c.configure({ preset: "memrl", knobs: { k1: 10 } })).knobs, { k1: "10" });
    assert.deepEqual(await c.namespaces(), ["team-a"]);
    assert.deepEqual(await c.health(), { status: "ok" });
    assert.deepEqual(await c.ready(), { status: "ready" });
    assert.equal((await c.openapi())["openapi"], "3.1.0");
    assert.equal(await c.metrics(), "# HELP x\nx 1\n");
    assert.deepEqual(s.received.map((r) => `${r.method} ${r.url}`), [
      "GET /v1/namespaces/team-a/stats", "GET /v1/namespaces/team-a/config", "PUT /v1/namespaces/team-a/config",
      "GET /v1/namespaces", "GET /v1/health", "GET /v1/ready", "GET /v1/openapi.json", "GET /metrics",
    ]);
    assert.deepEqual(JSON.parse(s.received[2]!.body), { preset: "memrl", knobs: { k1: 10 } });
  });

  it("a call's namespace wins over the client's, escaped in the path", async () => {
    const { c, s } = await client({ status: 200, body: {} });
    await c.stats({ namespace: "team.b-2" });
    assert.equal(s.one.url, "/v1/namespaces/team.b-2/stats");
  });

  it("NaN and infinite numbers are refused before sending (JSON would send null), naming the field", async () => {
    const { c, s } = await client();
    await assert.rejects(c.reward({ retrievalId: "r_1", reward: Number.NaN }), (e: unknown) =>
      e instanceof InvalidArgumentError && e.status === 0 && e.field === "reward" && e.message === "reward: must be a finite number, got NaN");
    await assert.rejects(c.retrieve({ embedding: [0.5, Number.POSITIVE_INFINITY] }), (e: unknown) =>
      e instanceof InvalidArgumentError && e.field === "embedding" && e.message === "embedding[1]: must be a finite number, got Infinity");
    await assert.rejects(c.configure({ knobs: { alpha: -Infinity } }), (e: unknown) =>
      e instanceof InvalidArgumentError && e.field === "knobs.alpha");
    assert.equal(s.received.length, 0);
  });

  it("no namespace anywhere: refused before sending, naming the field", async () => {
    stub = await Stub.start();
    const c = new MemLoopClient({ baseUrl: stub.url, apiKey: KEY });
    await assert.rejects(c.stats(), (e: unknown) => e instanceof InvalidArgumentError && e.field === "namespace" && e.status === 0);
    assert.equal(stub.received.length, 0);
  });

  it("a base URL with a path prefix keeps it; trailing slashes are dropped", async () => {
    const { s } = await client({ status: 200, body: { status: "ok" } });
    await new MemLoopClient({ baseUrl: `${s.url}/memloop//` }).health();
    assert.equal(s.one.url, "/memloop/v1/health");
  });

  it("the key comes from MEMLOOP_API_KEY when none is given; without one, no Authorization header", async () => {
    const { s } = await client({ status: 200, body: { namespaces: [] } });
    const saved = process.env["MEMLOOP_API_KEY"];
    try {
      process.env["MEMLOOP_API_KEY"] = "mlk_from-the-environment";
      await new MemLoopClient({ baseUrl: s.url }).namespaces();
      delete process.env["MEMLOOP_API_KEY"];
      await new MemLoopClient({ baseUrl: s.url }).namespaces();
    } finally {
      if (saved === undefined) {
        delete process.env["MEMLOOP_API_KEY"];
      } else {
        process.env["MEMLOOP_API_KEY"] = saved;
      }
    }
    assert.equal(s.received[0]!.headers["authorization"], "Bearer mlk_from-the-environment");
    assert.equal(s.received[1]!.headers["authorization"], undefined);
  });

  it("bad options are refused at construction, naming the option", () => {
    for (const [options, field] of [
      [{ baseUrl: "not a url" }, "baseUrl"],
      [{ baseUrl: "ftp://host" }, "baseUrl"],
      [{ baseUrl: "http://host/?x=1" }, "baseUrl"],
      [{ baseUrl: "http://u:p@host" }, "baseUrl"],
      [{ baseUrl: "http://host", timeoutMs: 0 }, "timeoutMs"],
      [{ baseUrl: "http://host", retries: -1 }, "retries"],
      [{ baseUrl: "http://host", retries: 1.5 }, "retries"],
    ] as const) {
      assert.throws(() => new MemLoopClient(options), (e: unknown) => e instanceof InvalidArgumentError && e.field === field, JSON.stringify(options));
    }
  });
});
