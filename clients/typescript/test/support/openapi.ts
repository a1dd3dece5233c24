import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The OpenAPI document the client is checked against: memloop-server's, or the one named by MEMLOOP_OPENAPI. */
export const OPENAPI_PATH = process.env["MEMLOOP_OPENAPI"]
  ?? resolve(dirname(fileURLToPath(import.meta.url)), "../../../../../memloop-server/src/main/resources/io/memloop/server/openapi.json");

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  queryParameters: string[];
  requestSchema: string | undefined;
}

interface Schema {
  required?: string[];
  properties?: Record<string, unknown>;
}

interface Document {
  paths: Record<string, Record<string, {
    operationId: string;
    parameters?: { name: string; in: string }[];
    requestBody?: { content: { "application/json": { schema: { $ref?: string } } } };
  }>>;
  components: { schemas: Record<string, Schema> };
}

export function loadDocument(): Document {
  return JSON.parse(readFileSync(OPENAPI_PATH, "utf8")) as Document;
}

/** Every operation of the document. */
export function operations(doc: Document = loadDocument()): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === "parameters") {
        continue;
      }
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        queryParameters: (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
        requestSchema: op.requestBody?.content["application/json"].schema.$ref?.replace("#/components/schemas/", ""),
      });
    }
  }
  return out;
}

/** A schema's field names and required ones. */
export function schema(name: string, doc: Document = loadDocument()): { fields: string[]; required: string[] } {
  const s = doc.components.schemas[name];
  if (s === undefined) {
    throw new Error(`no schema ${name} in ${OPENAPI_PATH}`);
  }
  return { fields: Object.keys(s.properties ?? {}), required: s.required ?? [] };
}
