import assert from "node:assert/strict";
import { MemLoopClient } from "../../src/index.js";
import { schema } from "./openapi.js";

/**
 * The live server of the integration tests, started by ./check: MEMLOOP_URL, MEMLOOP_API_KEY (a key for every
 * namespace) and MEMLOOP_TEST_ONE_KEY (a key for namespace ts-one only). Without them the tests fail: they are
 * never skipped.
 */
export function live(): { url: string; operatorKey: string; oneKey: string } {
  const url = process.env["MEMLOOP_URL"];
  const operatorKey = process.env["MEMLOOP_API_KEY"];
  const oneKey = process.env["MEMLOOP_TEST_ONE_KEY"];
  if (!url || !operatorKey || !oneKey) {
    throw new Error("the integration tests need a live memloop serve: run clients/typescript/check "
      + "(or set MEMLOOP_URL, MEMLOOP_API_KEY for '*' and MEMLOOP_TEST_ONE_KEY for namespace ts-one)");
  }
  return { url, operatorKey, oneKey };
}

let namespaces = 0;

/** A client with the operator key, in a namespace no other test uses (unique within this run of the server). */
export function fresh(name: string): MemLoopClient {
  const { url, operatorKey } = live();
  namespaces++;
  const ns = `ts-${name}-${process.pid}-${namespaces}`.slice(0, 64);
  return new MemLoopClient({ baseUrl: url, apiKey: operatorKey, namespace: ns });
}

/** `value` is an object with every required field of the document's schema `name`, and no other field. */
export function conforms(value: unknown, name: string): void {
  assert.ok(typeof value === "object" && value !== null, `${name}: not an object`);
  const { fields, required } = schema(name);
  const keys = Object.keys(value);
  assert.deepEqual(required.filter((k) => !keys.includes(k)), [], `${name}: required fields missing from the answer`);
  assert.deepEqual(keys.filter((k) => !fields.includes(k)), [], `${name}: fields of the answer the document does not have`);
}
