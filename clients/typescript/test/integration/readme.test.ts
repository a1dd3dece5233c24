// The README's quick start, run as written (its ```js block) against the live server, importing the package
// by its name (the package refers to itself through its "exports").
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MemLoopClient } from "../../src/index.js";
import { live } from "../support/live.js";

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

describe("README", () => {
  it("the quick start runs against the live server and ends an episode", async () => {
    const { url, operatorKey } = live();
    const readme = readFileSync(join(PACKAGE, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.equal(blocks.length, 1, "one ```js block in README.md");
    const dir = mkdtempSync(join(PACKAGE, "dist", "readme-"));
    try {
      const script = join(dir, "quick-start.mjs");
      writeFileSync(script, blocks[0]!);
      const run = await promisify(execFile)(process.execPath, [script], {
        cwd: PACKAGE, env: { ...process.env, MEMLOOP_URL: url, MEMLOOP_API_KEY: operatorKey }, timeout: 60_000,
      });
      assert.equal(run.stderr, "");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const c = new MemLoopClient({ baseUrl: url, apiKey: operatorKey, namespace: "team-a" });
    const stored = [];
    for await (const m of c.listAll({ text: "healthz" })) {
      stored.push(m.experience);
    }
    assert.ok(stored.includes("sudo systemctl restart nginx, then check /healthz"), JSON.stringify(stored));
  });
});
