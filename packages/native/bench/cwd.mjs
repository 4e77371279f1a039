// cwd() cost of @cwdkit/native against baselines measured in the same run, on the main thread and in a worker.
// Usage: npm run bench -w @cwdkit/native   (or: node|bun|deno run -A bench/cwd.mjs)
import process from 'node:process';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { do_not_optimize, measure } from 'mitata';
import { createProvider, napi, sharesGeneration } from '../dist/index.js';

const cached = createProvider({ mode: 'cached' });
const strict = createProvider({ mode: 'strict' });
const path = cached.cwd();
const bare = () => path;
const cachedCwd = cached.cwd;
const strictCwd = strict.cwd;
const { noop, getcwd } = napi;

// One literal per case: a shared call site would turn polymorphic and slow every case down alike.
const cases = {
  'bare cached-string closure': () => do_not_optimize(bare()),
  'native cached cwd()': () => do_not_optimize(cachedCwd()),
  'napi.noop()': () => do_not_optimize(noop()),
  'native strict cwd()': () => do_not_optimize(strictCwd()),
  'napi.getcwd()': () => do_not_optimize(getcwd()),
  'process.cwd()': () => do_not_optimize(process.cwd()),
};

async function measureAll() {
  const best = {};
  // Two rounds in opposite orders; each case keeps its better median.
  for (const names of [Object.keys(cases), Object.keys(cases).reverse()]) {
    for (const name of names) {
      const { p50 } = await measure(cases[name]);
      best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, p50);
    }
  }
  return best;
}

function print(thread, results) {
  const base = results['bare cached-string closure'];
  const noopCost = results['napi.noop()'];
  console.log(`\n${thread} (generation shared as memory: ${sharesGeneration})`);
  console.log('| case | ns/op (p50) | × bare closure | × napi.noop() |');
  console.log('|---|---:|---:|---:|');
  for (const [name, ns] of Object.entries(results)) {
    console.log(`| ${name} | ${ns.toFixed(2)} | ${(ns / base).toFixed(2)} | ${(ns / noopCost).toFixed(2)} |`);
  }
}

if (isMainThread) {
  const runtime = globalThis.Deno
    ? `Deno ${Deno.version.deno}`
    : globalThis.Bun
      ? `Bun ${Bun.version}`
      : `Node ${process.version}`;
  console.log(`${runtime}, ${process.platform}-${process.arch}`);
  print('main thread', await measureAll());
  const worker = new Worker(new URL(import.meta.url));
  const results = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  print('worker thread', results);
  await worker.terminate();
} else {
  parentPort.postMessage(await measureAll());
}
