// The memory inspector in a real browser (issue 28): headless Chromium (Debian's) driven by playwright-core against a
// live `memloop serve` started by ui/check (MEMLOOP_URL, MEMLOOP_KEY_A for namespace inspect-a, MEMLOOP_KEY_B for
// inspect-b). The test seeds both namespaces through the API, then walks the page as a user would; every console
// error and page error of the whole run fails it. Screenshots of each page go to ui/screenshots/ (and, with
// UPDATE_DOC_IMAGES=1, the best ones to docs/img/).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const URL_ = process.env.MEMLOOP_URL;
const KEY_A = process.env.MEMLOOP_KEY_A;
const KEY_B = process.env.MEMLOOP_KEY_B;
if (!URL_ || !KEY_A || !KEY_B) throw new Error("MEMLOOP_URL, MEMLOOP_KEY_A and MEMLOOP_KEY_B must be set (ui/check sets them)");
const NS = "inspect-a";
const NS_B = "inspect-b";
const SHOTS = fileURLToPath(new URL("../screenshots/", import.meta.url));
const DOC_IMG = fileURLToPath(new URL("../../docs/img/", import.meta.url));
const LONG_LINE = "L".repeat(5000);
const HOSTILE = [
  "<script>window.__pwned = 1; alert('script')</script>",
  "<img src=x onerror=\"window.__pwned = 2; alert('img')\">",
  "<a href=\"javascript:alert('link')\">javascript:alert('link')</a>",
  LONG_LINE,
].join("\n");
const TIMEOUT = 15_000;

/** A call to the live API from node, as an agent would make it. */
async function call(key, method, path, body) {
  const res = await fetch(`${URL_}/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const TOPICS = ["deploy the api to staging", "restart nginx after a config change", "rotate the database password",
  "fix a flaky integration test", "upgrade the java runtime", "clean up old docker images"];

let browser;
let page;
const problems = []; // console errors and page errors: each one fails the run
const dialogs = [];
let expectedHttpErrors = 0; // Chromium logs each 4xx answer as a console error: allowed only where the test expects one
const seeded = {};

before(async () => {
  // 60 memories in inspect-a (more than one page of 50), episodes so that Q moves and the charts have points,
  // one memory of hostile text; two memories in inspect-b.
  for (let i = 0; i < 60; i++) {
    const topic = TOPICS[i % TOPICS.length];
    const m = await call(KEY_A, "POST", `/namespaces/${NS}/memories`, {
      intent: `${topic} (case ${i})`,
      experience: `For case ${i} of "${topic}": ${i % 3 === 0 ? "it failed when done in a hurry" : "check the logs first, then act"}.`,
      outcome: i % 3 === 0 ? "failure" : "success",
    });
    if (i === 7) seeded.target = m;
    if (i === 13) seeded.doomed = m;
  }
  seeded.hostile = await call(KEY_A, "POST", `/namespaces/${NS}/memories`,
    { intent: "render hostile markup safely", experience: HOSTILE, outcome: "unknown" });
  for (let i = 0; i < 12; i++) {
    const r = await call(KEY_A, "POST", `/namespaces/${NS}/retrieve`, { intent: TOPICS[i % TOPICS.length] });
    await call(KEY_A, "POST", `/namespaces/${NS}/rewards`, { retrievalId: r.retrievalId, reward: i % 4 === 0 ? -1 : 1 });
  }
  await call(KEY_B, "POST", `/namespaces/${NS_B}/memories`, { intent: "tenant b secret task", experience: "b only", outcome: "success" });
  await call(KEY_B, "POST", `/namespaces/${NS_B}/memories`, { intent: "tenant b other task", experience: "b only too", outcome: "failure" });

  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage"], // root in CI has no user namespace sandbox
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB", timezoneId: "UTC" });
  page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    if (expectedHttpErrors > 0 && /^Failed to load resource: the server responded with a status of (401|404)/.test(msg.text())) {
      expectedHttpErrors--;
      return;
    }
    problems.push(`console: ${msg.text()} (${msg.location()?.url ?? ""})`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
});

after(async () => {
  if (browser) await browser.close();
});

async function shot(name, docName) {
  const file = `${SHOTS}${name}.png`;
  await page.screenshot({ path: file, fullPage: true });
  if (docName && process.env.UPDATE_DOC_IMAGES === "1") { // the README's pictures: the top of the page
    mkdirSync(DOC_IMG, { recursive: true });
    const height = Math.min(1400, await page.evaluate(() => document.documentElement.scrollHeight));
    await page.screenshot({ path: `${DOC_IMG}${docName}.png`, fullPage: true, clip: { x: 0, y: 0, width: 1280, height } });
  }
}

async function signIn(key) {
  await page.goto(`${URL_}/ui`);
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Namespaces" }).waitFor();
}

const noHorizontalOverflow = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test("the page, as a user walks it", async (t) => {
  await t.test("sign in with a key; the key stays out of the URL and out of localStorage", async () => {
    await page.goto(`${URL_}/ui`);
    await page.getByLabel("API key").waitFor();
    await shot("01-login");
    expectedHttpErrors++;
    await page.getByLabel("API key").fill("not-a-key-of-this-server");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "not a valid API key" }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, "a refused key is not kept");
    await page.getByLabel("API key").fill(KEY_A);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Namespaces" }).waitFor();
    await page.getByRole("link", { name: NS, exact: true }).waitFor();
    assert.ok(!page.url().includes(KEY_A));
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    assert.equal(await page.getByRole("link", { name: NS_B }).count(), 0, "tenant B's namespace is not listed to A");
    await page.locator("#namespaces tbody tr td").first().filter({ hasText: /\d/ }).waitFor();
    await shot("02-namespaces");
  });

  await t.test("a namespace: numbers, activity chart, live events, report", async () => {
    await page.goto(`${URL_}/ui#/`);
    await page.getByRole("link", { name: NS, exact: true }).click();
    await page.getByRole("heading", { name: `Namespace ${NS}` }).waitFor();
    assert.match(await page.locator("#stats").innerText(), /Memories\s+61/);
    // twelve rewarded retrievals: whether tasks come back is known (one model's vectors: no block weights)
    assert.match(await page.locator("#learned-namespace").innerText(), /Tasks that come back: \d+\.\d %/);
    assert.equal(await page.locator("#block-weights").count(), 0);
    // the doubt's two arms are rows of the learned table, whether or not a draw has been made yet
    assert.match(await page.locator("#learned").innerText(), /successes whose latest use failed[^\n]*\s+shown last\s+\d+/);
    assert.match(await page.locator("#learned").innerText(), /ranked by the learned similarity[^\n]*\s+learned similarity\s+\d+/);
    assert.match(await page.locator("#learned").innerText(), /ranked by its text.s words alone[^\n]*\s+words alone \(latest draws\)\s+\d+/);
    await page.locator(".chart canvas").first().waitFor();
    await page.locator("#events tbody tr").first().waitFor();
    assert.equal(await page.locator("#events tbody tr", { hasText: "a task the agent runs while the page is open" }).count(), 0);
    // an agent retrieves now: the event appears within a poll (3 s)
    await call(KEY_A, "POST", `/namespaces/${NS}/retrieve`, { intent: "a task the agent runs while the page is open" });
    await page.locator("#events tbody tr", { hasText: "a task the agent runs while the page is open" }).waitFor();
    assert.match(await page.locator("#events tbody tr").first().innerText(), /retrieved/, "newest first");
    await page.locator("#report tbody tr").first().waitFor(); // served with --event-log: the report is there
    assert.match(await page.locator("#report").innerText(), /logged decisions/);
    await shot("03-namespace", "inspector-namespace");
  });

  await t.test("memories: search, sort by a column, next and previous page", async () => {
    await page.goto(`${URL_}/ui#/ns/${NS}`);
    await page.getByRole("navigation").getByRole("link", { name: "Memories" }).click();
    await page.getByRole("heading", { name: `Memories of ${NS}` }).waitFor();
    await page.locator("#count", { hasText: "61 memories match" }).waitFor();
    await page.locator("#next").click();
    await page.locator("#count", { hasText: "Page 2" }).waitFor();
    assert.equal(await page.locator("#memories tbody tr").count(), 11);
    await page.locator("#prev").click();
    await page.locator("#count", { hasText: "Page 1" }).waitFor();
    await page.getByRole("button", { name: /^Q/ }).click();
    await page.locator("#memories th[aria-sort='descending']", { hasText: "Q" }).waitFor();
    // the header changes at once, the rows when the API answered: wait for the rows
    await page.waitForFunction(() => {
      const qs = [...document.querySelectorAll("#memories tbody tr td:nth-child(4)")].map((td) => Number(td.textContent));
      return document.querySelector("#memories").getAttribute("aria-busy") === "false" && qs.length === 50
        && qs.every((q, i) => i === 0 || qs[i - 1] >= q) && qs[0] > qs[qs.length - 1];
    });
    await page.getByLabel("Search text").fill("nginx");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#count", { hasText: "10 memories match" }).waitFor();
    const intents = await page.locator("#memories tbody tr td:first-child").allInnerTexts();
    assert.ok(intents.length === 10 && intents.every((s) => s.includes("nginx")), intents.join(" | "));
    await shot("04-memories");
  });

  await t.test("a memory: its Q changes after a reward sent through the API", async () => {
    const m = seeded.target;
    await page.goto(`${URL_}/ui#/ns/${NS}/m/${encodeURIComponent(m.id)}`);
    await page.locator("#experience").waitFor();
    assert.equal(await page.locator("#intent").innerText(), m.intent);
    const qBefore = await page.locator("#q").innerText();
    const r = await call(KEY_A, "POST", `/namespaces/${NS}/retrieve`, { intent: m.intent });
    assert.ok(r.selected.some((s) => s.id === m.id), "the memory is shown for its own intent");
    const rewarded = await call(KEY_A, "POST", `/namespaces/${NS}/rewards`, { retrievalId: r.retrievalId, reward: 1, usedMemoryIds: [m.id] });
    const qAfter = rewarded.updated.find((u) => u.id === m.id).qAfter;
    assert.notEqual(qAfter.toFixed(3), qBefore);
    await page.locator("#refresh").click();
    await page.locator("#q", { hasText: qAfter.toFixed(3) }).waitFor();
    await page.locator("#retrievals tbody tr").first().waitFor();
    await page.locator(".chart canvas").first().waitFor();
    await page.locator("#neighbours tbody tr").first().waitFor();
    await shot("05-memory", "inspector-memory");
  });

  await t.test("a memory: edit its experience", async () => {
    await page.locator("#edit").click();
    await page.getByLabel(/^Experience/).fill("Check the logs first, then act; edited in the inspector.");
    await page.locator("#save").click();
    await page.locator("#experience", { hasText: "edited in the inspector" }).waitFor();
    const m = await call(KEY_A, "GET", `/namespaces/${NS}/memories/${seeded.target.id}`);
    assert.equal(m.experience, "Check the logs first, then act; edited in the inspector.");
  });

  await t.test("why this retrieval: candidates, steps and what would be shown", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Why this retrieval" }).click();
    await page.getByLabel(/^Task/).fill("restart nginx after a config change");
    await page.locator("#explain").click();
    await page.locator("#candidates tbody tr").first().waitFor();
    assert.ok((await page.locator("#steps li").count()) > 0);
    assert.ok((await page.locator("#shown li, #shown-none").count()) > 0);
    await shot("06-why", "inspector-why");
  });

  await t.test("hostile memory text is shown inert, wrapped, and visible", async () => {
    const h = seeded.hostile;
    await page.goto(`${URL_}/ui#/ns/${NS}/m/${encodeURIComponent(h.id)}`);
    await page.locator("#experience").waitFor();
    const text = await page.locator("#experience").innerText();
    assert.ok(text.includes("<script>window.__pwned = 1;"), "the script tag is shown as text");
    assert.ok(text.includes("<img src=x onerror="), "the img tag is shown as text");
    assert.ok(text.includes("javascript:alert('link')"));
    assert.ok(text.includes(LONG_LINE), "the long line is all there");
    const injected = await page.evaluate(() => ({
      pwned: window.__pwned ?? null,
      scripts: document.querySelectorAll("#app script").length,
      imgs: document.querySelectorAll("#app img").length,
      jsLinks: [...document.querySelectorAll("a")].filter((a) => /^\s*javascript:/i.test(a.getAttribute("href") ?? "")).length,
    }));
    assert.deepEqual(injected, { pwned: null, scripts: 0, imgs: 0, jsLinks: 0 });
    assert.ok(await noHorizontalOverflow(), "the 5,000-character line wraps: no horizontal scrolling of the page");
    const box = await page.locator("#experience").boundingBox();
    assert.ok(box.width <= 1280, `experience box ${box.width}px wide`);
    await shot("07-hostile-memory");
    await page.goto(`${URL_}/ui#/ns/${NS}/memories?text=hostile`);
    await page.locator("#count", { hasText: "1 memory matches" }).waitFor();
    assert.ok(await noHorizontalOverflow(), "the memories table wraps the long line too");
    await shot("08-hostile-in-table");
    assert.deepEqual(dialogs, [], "no dialog was opened by memory text");
  });

  await t.test("forget a memory, with confirmation, then back to the table", async () => {
    const d = seeded.doomed;
    await page.goto(`${URL_}/ui#/ns/${NS}/m/${encodeURIComponent(d.id)}`);
    await page.locator("#forget").click();
    await page.locator("#forget-dialog[open]").waitFor();
    await shot("09-forget-confirm");
    await page.locator("#forget-cancel").click();
    assert.equal(await page.locator("#forget-dialog[open]").count(), 0);
    await call(KEY_A, "GET", `/namespaces/${NS}/memories/${d.id}`); // still there
    await page.locator("#forget").click();
    await page.locator("#forget-confirm").click();
    await page.getByRole("heading", { name: `Memories of ${NS}` }).waitFor();
    await page.locator("#count", { hasText: "60 memories match" }).waitFor();
    await assert.rejects(call(KEY_A, "GET", `/namespaces/${NS}/memories/${d.id}`), /404/);
  });

  await t.test("a tenant-B key cannot see tenant A's pages", async () => {
    await page.goto(`${URL_}/ui#/`);
    if (await page.getByRole("button", { name: "Sign out" }).count()) await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("API key").waitFor();
    await signIn(KEY_B);
    await page.getByRole("link", { name: NS_B, exact: true }).waitFor();
    assert.equal(await page.getByRole("link", { name: NS, exact: true }).count(), 0, "A's namespace is not listed");
    for (const route of [`#/ns/${NS}`, `#/ns/${NS}/memories`, `#/ns/${NS}/m/${encodeURIComponent(seeded.target.id)}`]) {
      expectedHttpErrors++;
      await page.goto(`${URL_}/ui${route}`);
      await page.getByRole("alert").filter({ hasText: `no namespace '${NS}' for this API key` }).waitFor();
      assert.ok(!(await page.content()).includes(seeded.target.intent), "none of A's memory text reaches B's page");
    }
    expectedHttpErrors++;
    await page.goto(`${URL_}/ui#/ns/${NS}/why`);
    await page.getByLabel(/^Task/).fill("deploy the api to staging");
    await page.locator("#explain").click();
    await page.getByRole("alert").filter({ hasText: `no namespace '${NS}' for this API key` }).waitFor();
    await shot("10-tenant-b-refused");
  });

  await t.test("a key the server no longer accepts returns to the sign-in", async () => {
    expectedHttpErrors++;
    await page.evaluate(() => sessionStorage.setItem("memloop.apiKey", "not-a-key"));
    await page.goto(`${URL_}/ui#/ns/${NS_B}`);
    await page.getByLabel("API key").waitFor();
    await page.getByText("Signed out: the server did not accept the key.").waitFor();
  });

  await t.test("keyboard: the sign-in and the first link are reachable with Tab, focus is visible", async () => {
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${URL_}/ui#/`);
    await page.reload();
    await page.getByLabel("API key").focus();
    await page.keyboard.type(KEY_B);
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: NS_B, exact: true }).waitFor();
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return { tag: el.tagName, outline: getComputedStyle(el).outlineStyle };
    });
    assert.equal(focused.tag, "A");
    assert.notEqual(focused.outline, "none", "the focused link shows a focus ring");
  });

  await t.test("no console error and no page error over the whole run", () => {
    assert.deepEqual(problems, []);
    assert.equal(expectedHttpErrors, 0, "every expected refusal happened");
  });
});
