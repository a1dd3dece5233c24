// Generates TypeScript types from the server's OpenAPI document (build/openapi.d.ts), which
// test/api-types.ts compares with the client's own types: an API change without a client change fails tsc.
// The document is memloop-server's openapi.json, or the one named by MEMLOOP_OPENAPI.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const here = dirname(fileURLToPath(import.meta.url));
const source = process.env.MEMLOOP_OPENAPI
  ?? resolve(here, "../../../memloop-server/src/main/resources/io/memloop/server/openapi.json");
const out = resolve(here, "../build/openapi.d.ts");
const doc = JSON.parse(readFileSync(source, "utf8"));

// "anyOf": [{"required": ["intent"]}, {"required": ["embedding"]}] says which fields must be present
// together; openapi-typescript turns such a schema into `{...} | unknown`, i.e. `unknown`, which would
// compare equal to anything. The fields stay; the client's types model the alternative as a union.
for (const schema of Object.values(doc.components?.schemas ?? {})) {
  if (Array.isArray(schema.anyOf) && schema.properties
      && schema.anyOf.every((s) => Object.keys(s).length === 1 && Array.isArray(s.required))) {
    delete schema.anyOf;
  }
}
const ast = await openapiTS(doc, { alphabetize: true });
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `// Generated from ${source} by scripts/generate-types.mjs; do not edit.\n${astToString(ast)}`);
console.log(`openapi types: ${source} -> ${out}`);
