#!/usr/bin/env node
// What runs per release, beside `npm test` (.ci/run runs both): every Node major users run (22, 24, 26) × every
// strategy. `npm test` runs every test file on the system Node, Bun and Deno; this adds, on the official Node 22, 24 and
// 26 binaries (node_modules/node22|node24|node26):
//   1. the conformance suite's whole run of each strategy (describeCwdStrategy: "passes under node22" …) and the
//      thread-safety tests that run per major (describeThreadSafety's cold worker, "(node22)" …): the test files that
//      hold them, with CWDKIT_CONFORMANCE_RUNTIMES=node22,node24,node26 and only those tests selected by name;
//   2. thread-cwd's per-major tests (its test/majors.ts: npm test runs them on Node 24) on Node 22 and 26, and
//      cwdkit's (its worker-counter differential and the flag's thread-cwd start-up: test/helpers.ts majorRuns);
//   3. thread-cwd's run of Node's own tests in all three columns (CWDKIT_NODE_TESTS=all: the real process and the
//      worker with its gates in place beside the lifted worker that npm test runs);
//   4. scripts/test-node-majors.mjs: the other suites of core and the strategies on each major (see its comment).
// Arguments go to test-node-majors (the majors; --full).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const majors = ['node22', 'node24', 'node26'];
// The packages whose tests run the conformance suite or the thread-safety tests in child runtimes, and those files.
const files = ['test/conformance.test.ts', 'test/workers.test.ts', 'test/suite.test.ts'];
const packages = ['conformance', 'naive', 'main-thread-cache', 'sab-atomics', 'mutex', 'native', 'thread-cwd'];
// The titles of the per-runtime tests: "passes under node24", "… (node24)".
const titles = `passes under (${majors.join('|')})$|\\((${majors.join('|')})\\)`;

const failed = [];
for (const name of packages) {
  const cwd = path.join(root, 'packages', name);
  const present = files.filter((file) => fs.existsSync(path.join(cwd, file)));
  if (present.length === 0) continue;
  const started = Date.now();
  console.log(`\n=== ${majors.join(', ')}: @cwdkit/${name} (${present.join(', ')})`);
  const run = spawnSync(process.execPath, [vitest, 'run', ...present, '-t', titles], {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, CWDKIT_CONFORMANCE_RUNTIMES: majors.join(',') },
  });
  console.log(`=== @cwdkit/${name}: exit ${run.status} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (run.status !== 0) failed.push(`@cwdkit/${name} on ${majors.join(', ')}`);
}

// Per-major tests that npm test runs on Node 24 only; here on Node 22 and 26 (titled "node22" or "node 22"):
// thread-cwd's (its test/majors.ts) and cwdkit's (majorRuns in its test/helpers.ts).
const perMajor = {
  'thread-cwd': ['workers', 'differential', 'enumeration', 'vitest-pools', 'mkdir-deleted', 'kernel', 'early'],
  cwdkit: ['worker-counter', 'register'],
};
for (const [name, tests] of Object.entries(perMajor)) {
  const cwd = path.join(root, 'packages', name);
  const started = Date.now();
  console.log(`\n=== node22, node26: @cwdkit/${name}, its per-major tests`);
  const run = spawnSync(
    process.execPath,
    [vitest, 'run', ...tests.map((test) => `test/${test}.test.ts`), '-t', 'node ?22|node ?26'],
    { cwd, stdio: 'inherit', env: { ...process.env, CWDKIT_CONFORMANCE_RUNTIMES: 'node22,node26' } },
  );
  console.log(`=== @cwdkit/${name} per major: exit ${run.status} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (run.status !== 0) failed.push(`@cwdkit/${name} on node22, node26`);
}

{
  const started = Date.now();
  console.log("\n=== @cwdkit/thread-cwd: Node's own tests, in a real process and in both kinds of worker");
  const run = spawnSync(process.execPath, [vitest, 'run', 'test/node-tests.test.ts'], {
    cwd: path.join(root, 'packages', 'thread-cwd'),
    stdio: 'inherit',
    env: { ...process.env, CWDKIT_NODE_TESTS: 'all' },
  });
  console.log(
    `=== @cwdkit/thread-cwd node-tests: exit ${run.status} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (run.status !== 0) failed.push("@cwdkit/thread-cwd's Node tests, all columns");
}

const suites = spawnSync(
  process.execPath,
  [path.join(root, 'scripts', 'test-node-majors.mjs'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
if (suites.status !== 0) failed.push('test-node-majors');
if (failed.length > 0) {
  console.error(`test-release: failed: ${failed.join(', ')}`);
  process.exit(1);
}
