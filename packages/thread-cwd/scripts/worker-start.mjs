#!/usr/bin/env node
// What installing thread-cwd costs a fresh worker (issue #28 item 5): workers started one at a time in one process,
// the variants alternating (the order rotates each round): an empty worker, and one that requires the setup entry in
// handles mode and in kernel mode (CWDKIT_THREAD_CWD_KERNEL in the worker's env). For each: the worker's own thread
// CPU time for the require (process.threadCpuUsage, Node 23.9+; less sensitive to a busy machine than wall time), the
// wall time from `new Worker` to its first message, and the heap the require left (after a full collection). The
// report gives medians and quartiles, and for the wall time the median of the paired differences variant - empty.
//
//   node --expose-gc packages/thread-cwd/scripts/worker-start.mjs [--rounds 40]
//   (any Node binary: node_modules/node24/bin/node --expose-gc ...)
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const rounds = Number(values.rounds);
const setup = createRequire(import.meta.url).resolve('@cwdkit/thread-cwd/setup');
if (typeof process.threadCpuUsage !== 'function') throw new Error('worker-start: needs Node 23.9+ (threadCpuUsage)');

/** The worker's code: time its own require of the entry (or nothing), then report. */
const body = (entry) => `
const { parentPort } = require('node:worker_threads');
globalThis.gc?.();
const heap = process.memoryUsage().heapUsed;
const cpu = process.threadCpuUsage();
${entry ? `require(${JSON.stringify(entry)});` : ''}
const used = process.threadCpuUsage(cpu);
globalThis.gc?.();
parentPort.postMessage({ cpuMs: (used.user + used.system) / 1000, heapKiB: (process.memoryUsage().heapUsed - heap) / 1024 });`;

const variants = {
  empty: { code: body(undefined), env: process.env },
  handles: { code: body(setup), env: { ...process.env, CWDKIT_THREAD_CWD_KERNEL: '0' } },
  kernel: { code: body(setup), env: { ...process.env, CWDKIT_THREAD_CWD_KERNEL: '1' } },
};
const names = Object.keys(variants);
const seen = Object.fromEntries(names.map((name) => [name, { cpuMs: [], heapKiB: [], wallMs: [] }]));

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
    seen[name].cpuMs.push(report.cpuMs);
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
console.log(`Node ${process.version}, ${rounds} rounds; medians (quartiles)`);
for (const name of names) {
  const { cpuMs, heapKiB, wallMs } = seen[name];
  const paired = wallMs.map((ms, i) => ms - seen.empty.wallMs[i]);
  console.log(
    `${name.padEnd(8)} require CPU ms ${spread(cpuMs)}  heap KiB ${spread(heapKiB)}  wall ms ${spread(wallMs)}` +
      (name === 'empty' ? '' : `  wall - empty ${spread(paired)}`),
  );
}
