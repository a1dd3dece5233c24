// The inspector's own numbers (BENCHMARKS.md, "The memory inspector"): headless Chromium (Debian's) against a running
// `memloop serve`. Not a test: it measures and prints.
//
//   node ui/test/perf.mjs render URL KEY NAMESPACE [RUNS] [WORD]
//     first render of the memories table: from navigation (a fresh page with the key already signed in) until the
//     first page of rows is drawn; then a search for WORD (typed, Search pressed) until its rows are drawn. RUNS
//     times each (default 7); prints every run and the median.
//   node ui/test/perf.mjs watch URL KEY NAMESPACE SECONDS
//     a user keeping the inspector open for SECONDS: the namespace page (it polls events every 3 s), and every 10 s
//     the memories table, a search and a memory's page, then back. For the load check (scripts/inspector-load).
import { chromium } from "playwright-core";

const [mode, URL_, KEY, NS, arg4, arg5] = process.argv.slice(2);
/** What the watching user searches for: a word of every memory of a BuildStore store (and of the browser test's). */
const WATCH_WORD = process.env.MEMLOOP_WATCH_WORD || "intent";

if (!["render", "watch", "requests"].includes(mode) || !URL_ || !KEY || !NS) {
  console.error("usage: perf.mjs render URL KEY NAMESPACE [RUNS] [WORD] | perf.mjs watch|requests URL KEY NAMESPACE SECONDS");
  process.exit(2);
}
if (mode === "requests") {
  await pageRequests(Number(arg4));
  process.exit(0);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-dev-shm-usage"],
});

/** What an open inspector asks of the server for SECONDS, from node (no browser). */
async function pageRequests(seconds) {
  const ns = encodeURIComponent(NS);
  const get = async (path) => {
    const res = await fetch(`${URL_}/v1/namespaces/${ns}${path}`, { headers: { Authorization: `Bearer ${KEY}` } });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const end = Date.now() + seconds * 1000;
  let after = null;
  let polls = 0;
  let rounds = 0;
  let nextRound = Date.now();
  await get("/overview");
  await get("/report");
  while (Date.now() < end) {
    const r = await get(`/events?${after == null ? "limit=100" : `after=${after}&limit=200`}`); // as the page polls
    after = after != null && r.events.length === 200 ? null : r.next;
    polls++;
    if (Date.now() >= nextRound) {
      await get("/memories?sort=created&order=desc&limit=50");
      const found = await get(`/memories?text=${encodeURIComponent(WATCH_WORD)}&sort=created&order=desc&limit=50`);
      const id = encodeURIComponent(found.memories[0].id);
      await Promise.all([get(`/memories/${id}/history`), get(`/memories/${id}/neighbours?limit=10`)]);
      await get("/overview");
      rounds++;
      nextRound += 10_000;
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
  console.log(`requests: ${polls} event polls and ${rounds} rounds in ${seconds} s`);
}

/** A fresh tab whose session already holds the key (as after signing in). */
async function signedInPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((key) => sessionStorage.setItem("memloop.apiKey", key), KEY);
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  return { context, page };
}

const rowsDrawn = (page) => page.waitForFunction(() => {
  const t = document.querySelector("#memories");
  return t && t.getAttribute("aria-busy") === "false" && t.querySelectorAll("tbody tr").length > 0;
});

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

try {
  if (mode === "render") {
    const runs = Number(arg4 || 7);
    const word = arg5 || "deploy";
    const first = [];
    const search = [];
    for (let i = 0; i < runs; i++) {
      const { context, page } = await signedInPage();
      const t0 = Date.now();
      await page.goto(`${URL_}/ui#/ns/${encodeURIComponent(NS)}/memories`);
      await rowsDrawn(page);
      first.push(Date.now() - t0);
      const before = await page.locator("#count").innerText();
      await page.locator("#search").fill(`${word}`);
      const t1 = Date.now();
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await page.waitForFunction((old) => {
        const t = document.querySelector("#memories");
        const c = document.querySelector("#count");
        return t && t.getAttribute("aria-busy") === "false" && c && c.textContent !== old && /match/.test(c.textContent);
      }, before);
      search.push(Date.now() - t1);
      const count = await page.locator("#count").innerText();
      console.log(`run ${i + 1}: first render ${first[i]} ms; search '${word}' ${search[i]} ms (${count})`);
      await context.close();
    }
    console.log(`median of ${runs}: first render ${median(first)} ms, search ${median(search)} ms`);
  } else {
    const seconds = Number(arg4);
    const { page } = await signedInPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const end = Date.now() + seconds * 1000;
    let rounds = 0;
    while (Date.now() < end) {
      await page.goto(`${URL_}/ui#/ns/${encodeURIComponent(NS)}`);
      await page.locator("#events tbody tr").first().waitFor();
      await page.waitForTimeout(Math.min(10_000, Math.max(0, end - Date.now()))); // the page polls meanwhile
      if (Date.now() >= end) break;
      await page.goto(`${URL_}/ui#/ns/${encodeURIComponent(NS)}/memories`);
      await rowsDrawn(page);
      await page.locator("#search").fill(WATCH_WORD);
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await rowsDrawn(page);
      await page.locator("#memories tbody tr td:first-child a").first().click();
      await page.locator("#experience").waitFor();
      rounds++;
    }
    console.log(`watch: ${rounds} rounds in ${seconds} s, page errors: ${errors.length}`);
    if (errors.length) process.exitCode = 1;
  }
} finally {
  await browser.close();
}
