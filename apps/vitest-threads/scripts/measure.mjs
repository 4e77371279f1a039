#!/usr/bin/env node
// The example's wall time on pool 'threads' with thread-cwd (vitest.config.ts) against pool 'forks' without setup
// (vitest.forks.config.ts), the user's other choice. One vitest process per run, the two alternating (which goes first
// swaps every pair), after one warm-up run of each; medians of each and of the per-pair ratios. Every run must pass.
//   node scripts/measure.mjs [pairs=10] [--json file]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const app = path.join(import.meta.dirname, '..');
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
const pairs = Number(args[0] ?? 10);
if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`measure: pairs must be a positive integer, not ${args[0]}`);

const configs = { threads: 'vitest.config.ts', forks: 'vitest.forks.config.ts' };

/** One vitest process on `config`: its wall time in ms; stops the measurement if the run fails. */
function run(name) {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, [vitest, 'run', '--config', configs[name]], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) {
    process.stderr.write(`${child.stdout}${child.stderr}`);
    throw new Error(`measure: vitest on ${name} exited ${child.status ?? child.signal}`);
  }
  return ms;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(
  `node ${process.version}, ${os.availableParallelism()} cpus, load ${load()}; ${pairs} pairs after a warm-up`,
);
run('threads');
run('forks');
const times = { threads: [], forks: [] };
for (let pair = 0; pair < pairs; pair++) {
  const order = pair % 2 === 0 ? ['threads', 'forks'] : ['forks', 'threads'];
  for (const name of order) times[name].push(run(name));
  console.log(
    `pair ${pair + 1}: threads ${times.threads[pair].toFixed(0)} ms, forks ${times.forks[pair].toFixed(0)} ms`,
  );
}
const ratios = times.threads.map((t, i) => t / times.forks[i]);
const result = {
  node: process.version,
  cpus: os.availableParallelism(),
  load: load(),
  pairs,
  medianMs: { threads: median(times.threads), forks: median(times.forks) },
  ratio: median(times.threads) / median(times.forks),
  medianPairRatio: median(ratios),
  times,
};
console.log(
  `median: threads + thread-cwd ${result.medianMs.threads.toFixed(0)} ms, forks ${result.medianMs.forks.toFixed(0)} ms; ` +
    `threads/forks ${result.ratio.toFixed(3)} (median of pair ratios ${result.medianPairRatio.toFixed(3)}, ` +
    `range ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}); load ${result.load}`,
);
if (jsonFile) fs.writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
