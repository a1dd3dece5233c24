// One whole MemLoop episode driven by the official MCP TypeScript SDK client over streamable HTTP:
// retrieve_experiences -> report_outcome -> remember_experience -> retrieve again (the new experience
// comes back) -> memory_stats. Exits non-zero with a message on any deviation.
//   node episode.mjs http://127.0.0.1:7070/mcp <api-key>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, key] = process.argv.slice(2);
if (!url || !key) {
  console.error("usage: node episode.mjs <mcp-url> <api-key>");
  process.exit(2);
}
const fail = (msg) => { console.error("episode failed: " + msg); process.exit(1); };
const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

const client = new Client({ name: "memloop-interop-ts", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: "Bearer " + key } },
}));
const tools = (await client.listTools()).tools.map((t) => t.name).sort();
const expected = ["edit_memory", "end_episode", "memory_stats", "remember_experience", "report_outcome", "retrieve_experiences", "search_memories"];
if (JSON.stringify(tools) !== JSON.stringify(expected)) fail("tools " + tools);

const intent = "purge the CDN cache of the landing page";
const first = await client.callTool({ name: "retrieve_experiences", arguments: { intent } });
if (first.isError) fail("retrieve: " + text(first));
const retrievalId = first.structuredContent?.retrievalId;
if (!retrievalId) fail("no retrievalId in " + JSON.stringify(first));

const reported = await client.callTool({ name: "report_outcome", arguments: { retrievalId, outcome: "success" } });
if (reported.isError) fail("report: " + text(reported));
const again = await client.callTool({ name: "report_outcome", arguments: { retrievalId, outcome: "success" } });
if (!again.isError || !text(again).startsWith("retrievalId:")) fail("a second report must be refused: " + text(again));

const experience = "cdnctl purge /index.html, then curl -I to check the Age header is 0";
const remembered = await client.callTool({ name: "remember_experience", arguments: { intent, experience, outcome: "success" } });
if (remembered.isError) fail("remember: " + text(remembered));

const second = await client.callTool({ name: "retrieve_experiences", arguments: { intent } });
if (!text(second).includes(experience)) fail("the remembered experience did not come back: " + text(second));
const id2 = second.structuredContent.retrievalId;
const used = second.structuredContent.selected[0].id;
const r2 = await client.callTool({ name: "report_outcome", arguments: { retrievalId: id2, reward: 1, usedMemoryIds: [used] } });
if (r2.isError) fail("report with usedMemoryIds: " + text(r2));
const updated = r2.structuredContent.updated;
if (!updated.length || !(updated[0].qAfter > updated[0].qBefore)) fail("utility did not rise: " + JSON.stringify(updated));

const stats = await client.callTool({ name: "memory_stats", arguments: {} });
if (stats.structuredContent.memories !== 1) fail("stats: " + text(stats));
await client.close();
console.log("episode ok: " + JSON.stringify({ retrievalId, remembered: remembered.structuredContent.id, q: updated[0].qAfter }));
