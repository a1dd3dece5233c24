// The client against a live `memloop serve` (started by ./check): the routes the server has had before
// issue 25. Fresh namespaces per test, so the tests do not see each other's memories.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import {
  ConflictError,
  InvalidArgumentError,
  MemLoopClient,
  NotFoundError,
  UnauthorizedError,
  type Memory,
} from "../../src/index.js";
import { conforms, fresh, live } from "../support/live.js";
import { OPENAPI_PATH } from "../support/openapi.js";

describe("live server: service routes", () => {
  it("health, ready, and the served OpenAPI document is the checked-in one", async () => {
    const c = new MemLoopClient({ baseUrl: live().url });
    assert.deepEqual(await c.health(), { status: "ok" });
    assert.deepEqual(await c.ready(), { status: "ready" });
    assert.deepEqual(await c.openapi(), JSON.parse(readFileSync(OPENAPI_PATH, "utf8")));
    assert.match(await c.metrics(), /memloop_requests_seconds/);
  });
});

describe("live server: an episode", () => {
  it("remember, retrieve, reward with usedMemoryIds, then the utility and visits changed; a second reward is a ConflictError", async () => {
    const c = fresh("episode");
    const m = await c.remember({ intent: "restart nginx on staging", experience: "sudo systemctl restart nginx, then check /healthz", outcome: "success" });
    conforms(m, "Memory");
    assert.equal(m.visits, 0);
    const r = await c.retrieve("restart nginx on the staging box");
    conforms(r, "Retrieval");
    r.candidates.forEach((x) => conforms(x, "Candidate"));
    assert.deepEqual(r.selected.map((s) => s.id), [m.id]);
    const rewarded = await c.reward({ retrievalId: r.retrievalId, reward: 1, usedMemoryIds: [m.id] });
    conforms(rewarded, "RewardResult");
    rewarded.updated.forEach((u) => conforms(u, "UtilityChange"));
    assert.equal(rewarded.retrievalId, r.retrievalId);
    assert.deepEqual(rewarded.updated.map((u) => [u.id, u.visits]), [[m.id, 1]]);
    assert.ok(rewarded.updated[0]!.qAfter > rewarded.updated[0]!.qBefore);
    const after = await c.get(m.id);
    assert.equal(after.visits, 1);
    assert.equal(after.q, rewarded.updated[0]!.qAfter);
    await assert.rejects(c.reward({ retrievalId: r.retrievalId, reward: 1 }), (e: unknown) =>
      e instanceof ConflictError && e.status === 409 && e.code === "conflict" && e.field === "retrievalId");
  });

  it("a multi-step reward with nextRetrievalId moves towards a Bellman target", async () => {
    const c = fresh("td");
    await c.configure({ knobs: { gamma: 0.5 } });
    const m = await c.remember({ intent: "deploy the app", experience: "run make deploy", outcome: "success" });
    const earlier = await c.retrieve("deploy the app");
    await c.reward({ retrievalId: earlier.retrievalId, reward: 1, usedMemoryIds: [m.id] });
    const q = (await c.get(m.id)).q;
    assert.ok(q > 0);
    const first = await c.retrieve("deploy the app");
    const second = await c.retrieve("deploy the app");
    const result = await c.reward({ retrievalId: first.retrievalId, reward: 0, nextRetrievalId: second.retrievalId });
    assert.equal(result.reward, 0);
    assert.ok(Math.abs(result.target! - 0.5 * q) < 1e-9, `target ${result.target} = 0 + gamma 0.5 * V' ${q}`);
  });

  it("remember with the episode's retrievalId; stats count it", async () => {
    const c = fresh("stats");
    const r = await c.retrieve("rotate the TLS certificate");
    const m = await c.remember({ intent: "rotate the TLS certificate", experience: "certbot renew hung on DNS", outcome: "failure", retrievalId: r.retrievalId });
    assert.equal(m.outcome, "failure");
    const stats = await c.stats();
    conforms(stats, "Stats");
    assert.equal(stats.memories, 1);
    assert.equal(stats.failures, 1);
    assert.equal(stats.successes, 0);
  });

  it("forget, then get is a NotFoundError naming memoryId", async () => {
    const c = fresh("forget");
    const m = await c.remember({ intent: "clear the cache", experience: "redis-cli FLUSHDB on the cache host", outcome: "success" });
    await c.forget(m.id);
    await assert.rejects(c.get(m.id), (e: unknown) => e instanceof NotFoundError && e.status === 404 && e.field === "memoryId");
    await assert.rejects(c.forget(m.id), NotFoundError);
  });
});

describe("live server: list", () => {
  it("pages in creation order; pages() and listAll() follow next to the last page", async () => {
    const c = fresh("pages");
    const made: Memory[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await c.remember({ intent: `task number ${i}`, experience: `step ${i}`, outcome: "success" }));
    }
    const first = await c.list({ limit: 2 });
    conforms(first, "MemoryPage");
    assert.deepEqual(first.memories.map((m) => m.id), made.slice(0, 2).map((m) => m.id));
    assert.notEqual(first.next, null);
    const pages = [];
    for await (const page of c.pages({ limit: 2 })) {
      pages.push(page.memories.map((m) => m.id));
    }
    assert.deepEqual(pages, [made.slice(0, 2), made.slice(2, 4), made.slice(4)].map((p) => p.map((m) => m.id)));
    const all = [];
    for await (const m of c.listAll({ limit: 3 })) {
      all.push(m.id);
    }
    assert.deepEqual(all, made.map((m) => m.id));
  });

  it("a limit out of range and a malformed cursor are InvalidArgumentErrors naming the parameter", async () => {
    const c = fresh("list-bad");
    await assert.rejects(c.list({ limit: 0 }), (e: unknown) => e instanceof InvalidArgumentError && e.field === "limit");
    await assert.rejects(c.list({ limit: 1001 }), (e: unknown) => e instanceof InvalidArgumentError && e.field === "limit");
    await assert.rejects(c.list({ after: "garbage" }), (e: unknown) => e instanceof InvalidArgumentError && e.field === "after");
  });
});

describe("live server: configuration", () => {
  it("config before use, configure with a preset and knobs, then config shows them", async () => {
    const c = fresh("config");
    const before = await c.config();
    conforms(before, "Config");
    assert.equal(before.recorded, false);
    const set = await c.configure({ preset: "memrl", knobs: { k1: 10 } });
    assert.equal(set.recorded, true);
    assert.equal(set.knobs["k1"], "10");
    assert.deepEqual(await c.config(), set);
  });

  it("an unknown knob is an InvalidArgumentError naming it", async () => {
    const c = fresh("config-bad");
    await assert.rejects(c.configure({ knobs: { nope: 1 } }), (e: unknown) =>
      e instanceof InvalidArgumentError && e.status === 400 && e.field === "knobs.nope");
  });
});

describe("live server: bad input and keys", () => {
  it("a bad outcome or an unknown field is an InvalidArgumentError naming the field, and nothing is stored", async () => {
    const c = fresh("bad");
    await assert.rejects(c.remember({ intent: "x", experience: "y", outcome: "maybe" as never }), (e: unknown) =>
      e instanceof InvalidArgumentError && e.code === "invalid_argument" && e.field === "outcome");
    await assert.rejects(c.remember({ intent: "x", experience: "y", outcome: "success", colour: "red" } as never), (e: unknown) =>
      e instanceof InvalidArgumentError && e.field === "colour");
    await assert.rejects(c.reward({ retrievalId: "r_unknown", reward: 1 }), (e: unknown) =>
      e instanceof NotFoundError && e.field === "retrievalId");
    assert.equal((await c.stats()).memories, 0);
  });

  it("a wrong key is an UnauthorizedError that does not show the key", async () => {
    const wrong = "mlk_this-is-not-a-valid-key-7f3a";
    const c = new MemLoopClient({ baseUrl: live().url, apiKey: wrong, namespace: "ts-one" });
    await assert.rejects(c.stats(), (e: unknown) =>
      e instanceof UnauthorizedError && e.status === 401 && e.field === "authorization" && !e.message.includes(wrong));
    await assert.rejects(new MemLoopClient({ baseUrl: live().url, apiKey: wrong }).namespaces(), UnauthorizedError);
  });

  it("a key for one namespace: that one works, another is a NotFoundError (as if it did not exist)", async () => {
    const { url, oneKey } = live();
    const c = new MemLoopClient({ baseUrl: url, apiKey: oneKey, namespace: "ts-one" });
    await c.remember({ intent: "scale the workers", experience: "kubectl scale deploy/workers --replicas=4", outcome: "success" });
    assert.deepEqual(await c.namespaces(), ["ts-one"]);
    await assert.rejects(c.stats({ namespace: "ts-other" }), (e: unknown) =>
      e instanceof NotFoundError && e.field === "namespace");
  });

  it("the operator key sees every namespace that holds data", async () => {
    const c = fresh("namespaces");
    await c.remember({ intent: "x", experience: "y", outcome: "unknown" });
    assert.ok((await c.namespaces()).includes(c.namespace!));
  });
});
