#!/usr/bin/env node
// What installing thread-cwd costs a fresh worker (issue #28 item 5): workers started one at a time in one process,
// the variants alternating (the order rotates each round): an empty worker, and one that requires the setup entry in
// handles mode and in kernel mode (CWDKIT_THREAD_CWD_KERNEL in the worker's env), and in kernel mode followed by the
// worker's first chdir (where the deferred install runs). For each: the worker's own time for the require (and the
// chdir), read with process.hrtime inside it (its thread CPU time here ticks in 4 ms steps, too coarse for this), the
// wall time from `new Worker` to its first message, and the heap the require left (after a full collection). The
// report gives medians and quartiles, and for the wall time the median of the paired differences variant - empty.
//
//   node --expose-gc packages/thread-cwd/scripts/worker-start.mjs [--rounds 40]
//   (any Node binary: node_modules/node24/bin/node --expose-gc ...; or, kernel mode only, node_modules/.bin/bun or
//   node_modules/.bin/deno run -A --v8-flags=--expose-gc)
import { createRequire } from 'node:module';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const rounds = Number(values.rounds);
const setup = createRequire(import.meta.url).resolve('@cwdkit/thread-cwd/setup');

/** The worker's code: time its own require of the entry (or nothing), and a first chdir if asked, then report. */
const body = (entry, chdir = false) => `
const { parentPort } = require('node:worker_threads');
const collect = globalThis.gc ?? (() => globalThis.Bun?.gc(true));
collect();
const heap = process.memoryUsage().heapUsed;
const started = process.hrtime.bigint();
${entry ? `require(${JSON.stringify(entry)});` : ''}
const required = process.hrtime.bigint();
${chdir ? `process.chdir(${JSON.stringify(os.tmpdir())});` : ''}
const moved = process.hrtime.bigint();
collect();
parentPort.postMessage({
  ms: Number(required - started) / 1e6,
  chdirMs: Number(moved - required) / 1e6,
  heapKiB: (process.memoryUsage().heapUsed - heap) / 1024,
});`;

const variants = {
  empty: { code: body(undefined), env: process.env },
  handles: { code: body(setup), env: { ...process.env, CWDKIT_THREAD_CWD_KERNEL: '0' } },
  kernel: { code: body(setup), env: { ...process.env, CWDKIT_THREAD_CWD_KERNEL: '1' } },
  'kernel+chdir': { code: body(setup, true), env: { ...process.env, CWDKIT_THREAD_CWD_KERNEL: '1' } },
};
// Bun's gc is Bun.gc.
const bun = process.versions.bun !== undefined;
const deno = globalThis.Deno?.version.deno;
// Bun and Deno have kernel mode only (their handles mode refuses).
if (bun || deno) delete variants.handles;
const names = Object.keys(variants);
const seen = Object.fromEntries(names.map((name) => [name, { ms: [], chdirMs: [], heapKiB: [], wallMs: [] }]));

for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + round) % names.length];
    const { code, env } = variants[name];
    const started = performance.now();
    const worker = new Worker(code, { eval: true, env });
    const report = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    seen[name].wallMs.push(performance.now() - started);
    seen[name].ms.push(report.ms);
    seen[name].chdirMs.push(report.chdirMs);
    seen[name].heapKiB.push(report.heapKiB);
    await worker.terminate();
  }
  process.stderr.write(`\rround ${round + 1}/${rounds}`);
}
process.stderr.write('\n');

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))];
};
const spread = (values) =>
  `${quantile(values, 0.5).toFixed(2)} (${quantile(values, 0.25).toFixed(2)}–${quantile(values, 0.75).toFixed(2)})`;
console.log(
  `${bun ? `Bun ${process.versions.bun}` : deno ? `Deno ${deno}` : `Node ${process.version}`}, ${rounds} rounds; medians (quartiles)`,
);
for (const name of names) {
  const { ms, chdirMs, heapKiB, wallMs } = seen[name];
  const paired = wallMs.map((value, i) => value - seen.empty.wallMs[i]);
  console.log(
    `${name.padEnd(13)} require ms ${spread(ms)}` +
      (name.endsWith('chdir') ? `  first chdir ms ${spread(chdirMs)}` : '') +
      `  heap KiB ${spread(heapKiB)}  wall ms ${spread(wallMs)}` +
      (name === 'empty' ? '' : `  wall - empty ${spread(paired)}`),
  );
}
