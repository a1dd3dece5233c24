// Writes ui/assets.txt next to the bundle: the names of the files under assets/, sorted, one a line. The server
// (UiAssets) serves exactly these names and nothing else; a request's path never becomes a file path.
import { readdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../../memloop-server/src/main/resources/io/memloop/server/ui/", import.meta.url));
const names = readdirSync(dir + "assets").sort();
for (const n of names) {
  if (!/^[A-Za-z0-9._-]+$/.test(n)) throw new Error(`asset name ${JSON.stringify(n)} has characters the server does not serve`);
}
writeFileSync(dir + "assets.txt", names.map((n) => n + "\n").join(""));
console.log(`ui: ${names.length} assets listed in assets.txt`);
