// The client against a live `memloop serve`: what issue 25 adds to the API (Memory.parts, PATCH memories/{id},
// list filters, sort and total, POST episodes, stats.model).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConflictError, InvalidArgumentError, NotFoundError, type MemLoopClient, type Memory } from "../../src/index.js";
import { conforms, fresh } from "../support/live.js";

describe("live server: memories show their parts", () => {
  it("a plain memory's parts are its experience", async () => {
    const c = fresh("parts");
    const m = await c.remember({ intent: "restart nginx", experience: "systemctl restart nginx", outcome: "success" });
    assert.deepEqual(m.parts, ["systemctl restart nginx"]);
    assert.deepEqual((await c.get(m.id)).parts, ["systemctl restart nginx"]);
  });
});

describe("live server: edit", () => {
  it("replaces the experience in place: same id, intent, outcome, utility, visits and creation time", async () => {
    const c = fresh("edit");
    const m = await c.remember({ intent: "restart nginx", experience: "systemctl restart nginx", outcome: "success" });
    const r = await c.retrieve("restart nginx");
    await c.reward({ retrievalId: r.retrievalId, reward: 1, usedMemoryIds: [m.id] });
    const before = await c.get(m.id);
    const edited = await c.edit(m.id, "systemctl reload nginx (no dropped connections)");
    conforms(edited, "Memory");
    assert.equal(edited.experience, "systemctl reload nginx (no dropped connections)");
    for (const field of ["id", "intentId", "intent", "outcome", "q", "visits", "createdAt"] as const) {
      assert.equal(edited[field], before[field], field);
    }
    assert.ok(Date.parse(edited.updatedAt) >= Date.parse(before.updatedAt));
    assert.deepEqual(await c.get(m.id), edited);
  });

  it("blank text is an InvalidArgumentError naming experience; an unknown id a NotFoundError", async () => {
    const c = fresh("edit-bad");
    const m = await c.remember({ intent: "restart nginx", experience: "systemctl restart nginx", outcome: "success" });
    await assert.rejects(c.edit(m.id, "   "), (e: unknown) => e instanceof InvalidArgumentError && e.field === "experience");
    assert.equal((await c.get(m.id)).experience, "systemctl restart nginx");
    await assert.rejects(c.edit("m_unknown", "x"), (e: unknown) => e instanceof NotFoundError && e.status === 404);
  });
});

describe("live server: list with filters", () => {
  /** Four memories, and a reward of a retrieval that selected the nginx one (and whichever else it selected: `rewarded`). */
  async function seed(c: MemLoopClient): Promise<{ nginx: Memory; redis: Memory; failed: Memory; unknown: Memory; all: Memory[]; rewarded: Set<string> }> {
    const nginx = await c.remember({ intent: "restart nginx", experience: "systemctl restart nginx", outcome: "success" });
    const redis = await c.remember({ intent: "flush the redis cache", experience: "redis-cli FLUSHDB", outcome: "success" });
    const failed = await c.remember({ intent: "drain the kubernetes node", experience: "kubectl drain --force left nginx down; restart it by hand", outcome: "failure" });
    const unknown = await c.remember({ intent: "rotate logs", experience: "logrotate -f", outcome: "unknown" });
    const r = await c.retrieve("restart nginx");
    const result = await c.reward({ retrievalId: r.retrievalId, reward: 1, usedMemoryIds: [nginx.id] });
    const rewarded = new Set(result.updated.filter((u) => u.visits > 0).map((u) => u.id));
    assert.ok(rewarded.has(nginx.id));
    return { nginx, redis, failed, unknown, all: [nginx, redis, failed, unknown], rewarded };
  }

  it("text, outcome (one or several), utility and visits bounds; total counts every match", async () => {
    const c = fresh("filters");
    const { nginx, redis, failed, unknown, all, rewarded } = await seed(c);
    const ids = async (q: Parameters<MemLoopClient["list"]>[0]) => (await c.list(q)).memories.map((m) => m.id);
    const where = (p: (m: Memory) => boolean) => all.filter(p).map((m) => m.id);
    assert.deepEqual(await ids({ text: "NGINX restart" }), [nginx.id, failed.id]);
    assert.deepEqual(await ids({ text: "flushdb" }), [redis.id]);
    assert.deepEqual(await ids({ outcome: "failure" }), [failed.id]);
    assert.deepEqual(await ids({ outcome: ["success", "unknown"] }), [nginx.id, redis.id, unknown.id]);
    assert.deepEqual(await ids({ minVisits: 1 }), where((m) => rewarded.has(m.id)));
    assert.deepEqual(await ids({ minQ: 0.01 }), where((m) => rewarded.has(m.id)));
    assert.deepEqual(await ids({ maxVisits: 0, outcome: "success" }), where((m) => m.outcome === "success" && !rewarded.has(m.id)));
    const page = await c.list({ limit: 1, outcome: ["success", "unknown"] });
    conforms(page, "MemoryPage");
    assert.equal(page.total, 3);
    assert.equal(page.memories.length, 1);
    assert.notEqual(page.next, null);
  });

  it("created and updated windows (from inclusive, to exclusive)", async () => {
    const c = fresh("windows");
    const { nginx, unknown, all, rewarded } = await seed(c);
    const ids = async (q: Parameters<MemLoopClient["list"]>[0]) => (await c.list(q)).memories.map((m) => m.id);
    assert.deepEqual(await ids({ createdFrom: nginx.createdAt }), all.map((m) => m.id));
    assert.deepEqual(await ids({ createdTo: nginx.createdAt }), []);
    assert.deepEqual(await ids({ createdFrom: new Date(Date.parse(unknown.createdAt) + 1) }), []);
    const rewardedAt = (await c.get(nginx.id)).updatedAt;
    assert.deepEqual(await ids({ updatedFrom: rewardedAt }), all.filter((m) => rewarded.has(m.id)).map((m) => m.id));
    assert.deepEqual(await ids({ updatedTo: rewardedAt }), all.filter((m) => !rewarded.has(m.id)).map((m) => m.id));
  });

  it("sort by q descending, and listAll over every page of a filtered query", async () => {
    const c = fresh("sort");
    const { nginx, all } = await seed(c);
    const sorted = (await c.list({ sort: "q", order: "desc" })).memories;
    assert.equal(sorted.length, all.length);
    assert.equal(sorted[0]!.q, (await c.get(nginx.id)).q);
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [sorted[i - 1]!, sorted[i]!];
      // ties in creation order, in the direction of the sort: the newer first
      assert.ok(a.q > b.q || (a.q === b.q && Date.parse(a.createdAt) >= Date.parse(b.createdAt)), `${a.q} before ${b.q}`);
    }
    const outcomes = [];
    for await (const m of c.listAll({ outcome: ["success", "unknown"], limit: 1 })) {
      outcomes.push(m.outcome);
    }
    assert.deepEqual(outcomes, ["success", "success", "unknown"]);
  });

  it("a bad parameter is an InvalidArgumentError naming it; a cursor of another query is refused", async () => {
    const c = fresh("filters-bad");
    await seed(c);
    await assert.rejects(c.list({ sort: "sideways" as never }), (e: unknown) => e instanceof InvalidArgumentError && e.field === "sort");
    await assert.rejects(c.list({ order: "up" as never }), (e: unknown) => e instanceof InvalidArgumentError && e.field === "order");
    await assert.rejects(c.list({ outcome: "maybe" as never }), (e: unknown) => e instanceof InvalidArgumentError && e.field === "outcome");
    await assert.rejects(c.list({ createdFrom: "yesterday" }), (e: unknown) => e instanceof InvalidArgumentError && e.field === "createdFrom");
    await assert.rejects(c.list({ minVisits: -1 }), (e: unknown) => e instanceof InvalidArgumentError && e.field === "minVisits");
    const next = (await c.list({ limit: 1, outcome: "success" })).next;
    assert.ok(next);
    await assert.rejects(c.list({ limit: 1, outcome: "failure", after: next }), (e: unknown) => e instanceof InvalidArgumentError && e.field === "after");
    await assert.rejects(c.list({ limit: 1, outcome: "success", after: next }, { namespace: fresh("other").namespace }),
      (e: unknown) => e instanceof InvalidArgumentError && e.field === "after");
  });
});

describe("live server: end an episode in one call", () => {
  it("rewards the retrieval and stores the experience (201), linked", async () => {
    const c = fresh("episode-end");
    const m = await c.remember({ intent: "restart nginx", experience: "systemctl restart nginx", outcome: "success" });
    const r = await c.retrieve("restart nginx");
    const end = await c.endEpisode({ retrievalId: r.retrievalId, reward: 1, usedMemoryIds: [m.id], intent: "restart nginx",
      experience: "systemctl restart nginx worked again; check /healthz after", outcome: "success" });
    conforms(end, "EpisodeEnd");
    conforms(end.reward, "RewardResult");
    conforms(end.memory, "Memory");
    assert.equal(end.reward.retrievalId, r.retrievalId);
    assert.deepEqual(end.reward.updated.map((u) => u.id), [m.id]);
    assert.equal((await c.get(m.id)).visits, 1);
    assert.equal((await c.get(end.memory.id)).id, end.memory.id);
  });

  it("a bad field writes nothing (the retrieval can still be rewarded); an already rewarded retrieval is a ConflictError and stores nothing", async () => {
    const c = fresh("episode-bad");
    await c.remember({ intent: "restart nginx", experience: "systemctl restart nginx", outcome: "success" });
    const r = await c.retrieve("restart nginx");
    const before = (await c.stats()).memories;
    await assert.rejects(c.endEpisode({ retrievalId: r.retrievalId, reward: 1, intent: "restart nginx", experience: "x", outcome: "maybe" as never }),
      (e: unknown) => e instanceof InvalidArgumentError && e.field === "outcome");
    assert.equal((await c.stats()).memories, before);
    await c.reward({ retrievalId: r.retrievalId, reward: 1 });
    await assert.rejects(c.endEpisode({ retrievalId: r.retrievalId, reward: 1, intent: "restart nginx", experience: "again", outcome: "success" }),
      (e: unknown) => e instanceof ConflictError && e.field === "retrievalId");
    assert.equal((await c.stats()).memories, before);
  });
});

describe("live server: stats name the embedding model", () => {
  it("model id and dimension", async () => {
    const c = fresh("model");
    const stats = await c.stats();
    conforms(stats, "Stats");
    assert.ok(stats.model !== null, "a served store records its model");
    assert.equal(typeof stats.model.id, "string");
    assert.ok(stats.model.id.length > 0);
    assert.ok(Number.isInteger(stats.model.dimension) && stats.model.dimension > 0);
  });
});
