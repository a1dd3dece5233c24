// The inspector's build: one ES module bundle and one stylesheet with content hashes in their names, written
// into memloop-server's resources (committed, so that the Maven build needs no Node). JSX is compiled by
// Vite's esbuild for Preact (no Babel).
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

const out = fileURLToPath(new URL("../memloop-server/src/main/resources/io/memloop/server/ui", import.meta.url));

export default defineConfig({
  base: "/ui/",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    outDir: out,
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2020",
    sourcemap: false,
    modulePreload: { polyfill: false }, // the polyfill would be an inline script, which the page's CSP refuses
    cssCodeSplit: false,
    reportCompressedSize: false,
    assetsInlineLimit: 0, // no data: URLs for assets: every asset is a file the server lists
  },
  server: { proxy: { "/v1": "http://127.0.0.1:7070" } },
});
