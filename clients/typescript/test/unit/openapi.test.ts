// The client against memloop-server's openapi.json at run time: every operation (operationId, method, path,
// query parameters) is one the client calls, and the client calls nothing else. The field names and types of
// bodies and answers are compared at compile time (test/api-types.ts, npm run typecheck:api).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemLoopClient, OPERATIONS } from "../../src/index.js";
import { LIST_QUERY_PARAMETERS } from "../../src/operations.js";
import { OPENAPI_PATH, operations } from "../support/openapi.js";

describe(`the client covers ${OPENAPI_PATH}`, () => {
  const documented = operations();

  it("every operationId of the document has a client method", () => {
    const missing = documented.filter((op) => !(op.operationId in OPERATIONS)).map((op) => `${op.operationId} (${op.method} ${op.path})`);
    assert.deepEqual(missing, [], "operations the client does not call");
  });

  it("every operation the client calls is in the document, with the same method and path", () => {
    const byId = new Map(documented.map((op) => [op.operationId, op]));
    const wrong = Object.entries(OPERATIONS)
      .filter(([id, op]) => `${op.method} ${op.path}` !== `${byId.get(id)?.method} ${byId.get(id)?.path}`)
      .map(([id, op]) => `${id}: the client sends ${op.method} ${op.path}, the document has `
        + (byId.has(id) ? `${byId.get(id)?.method} ${byId.get(id)?.path}` : "no such operation"));
    assert.deepEqual(wrong, []);
  });

  it("each operation's client method exists", () => {
    for (const [id, op] of Object.entries(OPERATIONS)) {
      assert.equal(typeof (MemLoopClient.prototype as unknown as Record<string, unknown>)[op.clientMethod], "function", `${id}: ${op.clientMethod}`);
    }
  });

  it("list sends exactly the document's query parameters", () => {
    const doc = documented.find((op) => op.operationId === "listMemories");
    assert.ok(doc);
    assert.deepEqual([...LIST_QUERY_PARAMETERS].sort(), [...doc.queryParameters].sort());
  });

  it("events and neighbours take the parameters their methods send, and no other operation takes any", () => {
    const sent: Record<string, string[]> = { events: ["after", "limit"], memoryNeighbours: ["limit"] };
    for (const [id, names] of Object.entries(sent)) {
      assert.deepEqual([...(documented.find((op) => op.operationId === id)?.queryParameters ?? [])].sort(), names, id);
    }
    assert.deepEqual(documented.filter((op) => op.operationId !== "listMemories" && !(op.operationId in sent)
      && op.queryParameters.length > 0).map((op) => op.operationId), []);
  });
});
