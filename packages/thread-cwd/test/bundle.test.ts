// Bundlers: a CommonJS app that require()s thread-cwd (its .cjs build), bundled by the real esbuild into an ES module
// and into CommonJS, run by Node from a folder with no node_modules: it loads (no tsup shim's `__filename`), a worker's
// chdir works, and a worker it starts says, with a coded warning, that it cannot preload the setup entry.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packages = path.join(import.meta.dirname, '..', '..');
const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-bundle-')));
const project = path.join(scratch, 'project');
const runIn = path.join(scratch, 'run'); // no node_modules here or above: only the bundle can load anything

// The app: in its worker, thread-cwd installed, a chdir, a relative read, and a worker started from there.
const app = `const fs = require('node:fs');
const path = require('node:path');
const workerThreads = require('node:worker_threads');
const { isMainThread, parentPort } = workerThreads;
const { install } = require('cwdkit');
const { createProvider } = require('@cwdkit/thread-cwd');
if (isMainThread) {
  new workerThreads.Worker(process.argv[1]).on('message', (report) => console.log(JSON.stringify(report)));
} else {
  const warnings = [];
  process.on('warning', (warning) => warnings.push(warning.code));
  install(createProvider());
  process.chdir('inner');
  const read = fs.readFileSync('file', 'utf8');
  // The Worker class read after install(), which covers it (one taken before is not: trap 15).
  const child = new workerThreads.Worker("require('node:worker_threads').parentPort.postMessage(process.cwd())", { eval: true });
  child.on('message', (childCwd) => {
    setImmediate(() => parentPort.postMessage({ cwd: process.cwd(), read, childCwd, warnings }));
  });
}
`;

// The same app as an ES module importing the ESM builds: bundled, import.meta.url names the bundle, whose folder has
// no setup.cjs (a worker then failed MODULE_NOT_FOUND instead of starting bare with the warning).
const esmApp = app
  .replace("const fs = require('node:fs');", "import fs from 'node:fs';")
  .replace("const path = require('node:path');\n", '')
  .replace("const workerThreads = require('node:worker_threads');", "import workerThreads from 'node:worker_threads';")
  .replace("const { install } = require('cwdkit');", "import { install } from 'cwdkit';")
  .replace(
    "const { createProvider } = require('@cwdkit/thread-cwd');",
    "import { createProvider } from '@cwdkit/thread-cwd';",
  );

beforeAll(() => {
  for (const [name, folder] of [
    ['cwdkit', 'cwdkit'],
    ['@cwdkit/core', 'core'],
    ['@cwdkit/native', 'native'], // its JavaScript: a bundle holds no addon, so thread-cwd runs in handles mode
    ['@cwdkit/sab-atomics', 'sab-atomics'],
    ['@cwdkit/thread-cwd', 'thread-cwd'],
  ] as const) {
    for (const part of ['dist', 'package.json']) {
      fs.cpSync(path.join(packages, folder, part), path.join(project, 'node_modules', name, part), { recursive: true });
    }
  }
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  fs.writeFileSync(path.join(project, 'app.cjs'), app);
  fs.writeFileSync(path.join(project, 'app.mjs'), esmApp);
  fs.mkdirSync(path.join(runIn, 'inner'), { recursive: true });
  fs.writeFileSync(path.join(runIn, 'inner', 'file'), 'inner file');
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// What esbuild's users add so that CommonJS code in an ES module bundle can require() builtins (it has no require).
const requireBanner = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

describe.skipIf(process.platform !== 'linux').each([
  ['esm', 'app.cjs'],
  ['cjs', 'app.cjs'],
  ['esm', 'app.mjs'],
] as const)('esbuild, %s output of %s', (format, entry) => {
  it("thread-cwd bundled loads; a worker's chdir works; its workers warn they start bare", async () => {
    const file = path.join(runIn, `${entry}.${format === 'esm' ? 'mjs' : 'cjs'}`);
    await build({
      entryPoints: [path.join(project, entry)],
      absWorkingDir: project,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format,
      outfile: file,
      logLevel: 'silent',
      ...(format === 'esm' ? { banner: { js: requireBanner } } : {}),
    });
    const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: runIn });
    expect(JSON.parse(stdout)).toEqual({
      cwd: path.join(runIn, 'inner'),
      read: 'inner file',
      childCwd: runIn, // not installed in it: the process cwd, as the warning says
      warnings: ['CWDKIT_THREAD_CWD_BUNDLED'],
    });
  });
});
