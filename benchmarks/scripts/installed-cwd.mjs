#!/usr/bin/env node
// A second harness for thread-cwd-worker's installed process.cwd() (#22 item 7), sharing no code with the bench's
// engine: one process per run, the runs alternating the order of their workers; each worker times hand-written loops
// (one `new Function` source per row, so no two rows share a call site), the fastest of 7 blocks of 2e6 calls. Workers:
// none installed; thread-cwd installed and chdir'd; sab-atomics installed (its main thread loaded it too);
// main-thread-cache installed. Prints each ratio's median over processes with its range.
//   node benchmarks/scripts/installed-cwd.mjs [processes=12]   (run it with the Node to measure, e.g. node24)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const CALLS = 2e6;
const BLOCKS = 7;

/** Rows as source text: `p` is process, `f` the installed function taken once, `c` provider.cwd, `own` the original. */
const ROWS = {
  plain: { 'process.cwd()': 'p.cwd()', 'bound original': 'own()', 'process.cwd (the load alone)': 'p.cwd' },
  'thread-cwd': {
    'process.cwd()': 'p.cwd()',
    'f = process.cwd; f()': 'f()',
    'provider.cwd()': 'c()',
    'mutable cache': 'h.v ?? c()',
  },
  'sab-atomics': { 'process.cwd()': 'p.cwd()', 'f = process.cwd; f()': 'f()', 'provider.cwd()': 'c()' },
  'main-thread-cache': { 'process.cwd()': 'p.cwd()', 'f = process.cwd; f()': 'f()', 'provider.cwd()': 'c()' },
};

function measureRow(expression, scope) {
  const loop = new Function(
    'p',
    'f',
    'c',
    'own',
    'h',
    'sink',
    `/* ${Math.random()} */ return function (n) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) { const v = ${expression}; sink.v = v; }
      return Number(process.hrtime.bigint() - start) / n;
    };`,
  )(process, scope.f, scope.c, scope.own, scope.h, scope.sink);
  loop(CALLS); // warm up to the optimizing tier
  let best = Number.POSITIVE_INFINITY;
  for (let block = 0; block < BLOCKS; block++) best = Math.min(best, loop(CALLS));
  return best;
}

async function worker() {
  const { setup, dir } = workerData;
  const own = process.cwd.bind(process);
  let provider;
  if (setup !== 'plain') {
    const { install } = await import('cwdkit');
    const definition = (await import(`@cwdkit/${setup}`)).default;
    provider = definition.create();
    install(provider);
    if (setup === 'thread-cwd') process.chdir(dir);
  }
  const c = provider ? () => provider.cwd() : own;
  const h = { v: undefined };
  h.v = '';
  h.v = c();
  const scope = { f: process.cwd, c, own, h, sink: { v: undefined } };
  if (setup === 'thread-cwd' && process.cwd() !== dir) throw new Error('thread-cwd: the chdir did not take');
  const times = {};
  for (const [label, expression] of Object.entries(ROWS[setup])) times[label] = measureRow(expression, scope);
  parentPort.postMessage(times);
}

async function child(order) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'installed-cwd-')));
  const sab = (await import('@cwdkit/sab-atomics')).default.create(); // so that its workers are not cold
  const results = {};
  try {
    for (const setup of order) {
      const w = new Worker(fileURLToPath(import.meta.url), { workerData: { setup, dir } });
      const [times] = await Promise.race([
        new Promise((resolve) => w.once('message', (m) => resolve([m]))),
        new Promise((_, reject) => w.once('error', reject)),
      ]);
      results[setup] = times;
      await w.terminate();
    }
  } finally {
    sab.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

function orchestrate(processes) {
  const setups = Object.keys(ROWS);
  const runs = [];
  for (let run = 0; run < processes; run++) {
    const order = run % 2 === 0 ? setups : [...setups].reverse();
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', order.join(',')], {
      encoding: 'utf8',
    });
    runs.push(JSON.parse(out.trim().split('\n').at(-1)));
  }
  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const show = (values) =>
    `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)})`;
  console.log(
    `node ${process.version}, ${processes} processes, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('ns per call, median over processes (range):');
  for (const setup of setups) {
    for (const label of Object.keys(ROWS[setup]))
      console.log(`  ${setup.padEnd(18)} ${label.padEnd(30)} ${show(runs.map((r) => r[setup][label]))}`);
  }
  const ratio = (a, b) => runs.map((r) => r[a[0]][a[1]] / r[b[0]][b[1]]);
  const installed = ['thread-cwd', 'process.cwd()'];
  console.log("ratios, per process (median, range): thread-cwd's installed process.cwd() in a chdir'd worker ÷");
  for (const [label, against] of [
    ['the mutable cache (the goal of #22, ≤ 1.5)', ['thread-cwd', 'mutable cache']],
    ['process.cwd() of a worker without cwdkit', ['plain', 'process.cwd()']],
    ['process.cwd() with sab-atomics installed', ['sab-atomics', 'process.cwd()']],
    ['process.cwd() with main-thread-cache installed', ['main-thread-cache', 'process.cwd()']],
  ]) {
    console.log(`  ${label.padEnd(48)} ${show(ratio(installed, against))}`);
  }
  console.log(
    `  and f() ÷ provider.cwd() (the wrapper alone)     ${show(ratio(['thread-cwd', 'f = process.cwd; f()'], ['thread-cwd', 'provider.cwd()']))}`,
  );
  console.log(
    `  plain: the load alone ÷ process.cwd()           ${show(ratio(['plain', 'process.cwd (the load alone)'], ['plain', 'process.cwd()']))}`,
  );
}

if (!isMainThread) await worker();
else if (process.argv[2] === '--child') await child(process.argv[3].split(','));
else orchestrate(Number(process.argv[2] ?? 12));
