#!/usr/bin/env node
// A second, simple harness for the cold worker: a worker whose main thread never loads the strategy (so it finds no
// shared memory) times `provider.cwd()` against its own `process.cwd()` (`Deno.cwd()` on Deno), in alternating blocks;
// it prints the medians and their ratio. One process per strategy; run it under each runtime:
//
//   node24 packages/cwdkit/scripts/cold-worker.mjs [sab-atomics mutex native]
//   bun packages/cwdkit/scripts/cold-worker.mjs …      deno run -A packages/cwdkit/scripts/cold-worker.mjs …
//
// The strategies are imported by name from the workspace's node_modules (build them first).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const BLOCKS = 31;
const CALLS = 100_000;

// Two loops written out separately, so that neither shares a call-site profile with the other (trap 8); each keeps
// its results alive by summing their lengths.
function timeRuntime(read) {
  let sum = 0;
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) sum += read().length;
  return [((performance.now() - start) * 1e6) / CALLS, sum];
}
function timeProvider(provider) {
  let sum = 0;
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) sum += provider.cwd().length;
  return [((performance.now() - start) * 1e6) / CALLS, sum];
}
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];

if (!isMainThread) {
  const { default: strategy } = await import(workerData.module);
  const provider = strategy.create();
  const deno = globalThis.Deno;
  const read = deno ? () => deno.cwd() : () => process.cwd();
  const own = [];
  const ours = [];
  let keep = 0;
  for (let block = 0; block < BLOCKS; block++) {
    const order = block % 2 === 0;
    const a = order ? timeRuntime(read) : timeProvider(provider);
    const b = order ? timeProvider(provider) : timeRuntime(read);
    (order ? own : ours).push(a[0]);
    (order ? ours : own).push(b[0]);
    keep += a[1] + b[1];
  }
  // The first blocks warm the JIT up.
  const runtimeNs = median(own.slice(5));
  const providerNs = median(ours.slice(5));
  parentPort.postMessage({ runtimeNs, providerNs, cold: provider.capabilities.cold ?? null, keep: keep > 0 });
} else if (process.argv[2] === '--one') {
  // One strategy, in this process: the main thread never imports it.
  const module = `@cwdkit/${process.argv[3]}`;
  const worker = new Worker(new URL(import.meta.url), { workerData: { module } });
  worker.once('message', (result) => {
    const ratio = result.providerNs / result.runtimeNs;
    console.log(
      `${process.argv[3].padEnd(12)} cwd() ${result.providerNs.toFixed(2).padStart(8)} ns, the worker's own ` +
        `${result.runtimeNs.toFixed(2).padStart(7)} ns: ${ratio.toFixed(2)}× (cold: ${result.cold})`,
    );
  });
} else {
  const deno = globalThis.Deno;
  const runtime = deno
    ? `deno ${deno.version.deno}`
    : globalThis.Bun
      ? `bun ${Bun.version}`
      : `node ${process.version}`;
  console.log(`cold worker, ${runtime}: median ns per call of ${BLOCKS - 5} alternating blocks of ${CALLS}`);
  const self = fileURLToPath(import.meta.url);
  const command = deno ? [process.execPath, 'run', '-A', self] : [process.execPath, self];
  for (const name of process.argv.slice(2).length ? process.argv.slice(2) : ['sab-atomics', 'mutex', 'native']) {
    const [bin, ...args] = command;
    const child = spawnSync(bin, [...args, '--one', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    process.stdout.write(child.stdout);
  }
}
