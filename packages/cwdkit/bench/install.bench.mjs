// path.resolve('src', 'index.ts') with the runtime's own cwd and after install(), measured in the same process:
//   node bench/install.bench.mjs [strategy] [--rounds=8]
//   deno run -A bench/install.bench.mjs [strategy] [--rounds=8]
// The strategy package must be installed and built (default: main-thread-cache). Each round measures both cases with
// mitata, alternating which goes first, after one warm-up round; the result is the median of the per-round medians
// (p50) and of the ratios. BENCH_VERBOSE=1 prints every round.
import path from 'node:path';
import process from 'node:process';
import { runtime } from '@cwdkit/core';
import { bench, do_not_optimize, run } from 'mitata';
import { createCwdProvider, install } from '../dist/index.js';

const args = process.argv.slice(2);
const strategy = args.find((arg) => !arg.startsWith('--')) ?? 'main-thread-cache';
const rounds = Number(args.find((arg) => arg.startsWith('--rounds='))?.slice(9) ?? 8);
const provider = await createCwdProvider({ strategy });

const resolve = () => do_not_optimize(path.resolve('src', 'index.ts'));
const cases = {
  runtime: () => bench('runtime', resolve),
  installed: () =>
    bench('installed', function* () {
      const uninstall = install(provider);
      yield resolve;
      uninstall();
    }),
};

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const results = { runtime: [], installed: [], ratio: [] };
for (let round = -1; round < rounds; round++) {
  const order = round % 2 === 0 ? ['runtime', 'installed'] : ['installed', 'runtime'];
  for (const name of order) cases[name]();
  const { benchmarks } = await run({ format: 'quiet' });
  const p50 = Object.fromEntries(benchmarks.map((b) => [b.alias, b.runs[0].stats.p50]));
  if (round < 0) continue; // a warm-up round: the first measurements of a fresh process run cold
  results.runtime.push(p50.runtime);
  results.installed.push(p50.installed);
  results.ratio.push(p50.runtime / p50.installed);
  if (process.env.BENCH_VERBOSE) console.log(order.join(' then '), p50);
}
provider.close();

const ns = (value) => `${value.toFixed(0)} ns`;
const [low, high] = [Math.min(...results.ratio), Math.max(...results.ratio)];
console.log(`${runtime} ${process.versions[runtime] ?? ''}, install(${strategy}), ${rounds} rounds, median of p50s`);
console.log(`  path.resolve, runtime's own cwd: ${ns(median(results.runtime))}`);
console.log(`  path.resolve, installed:         ${ns(median(results.installed))}`);
console.log(`  speed-up: ${median(results.ratio).toFixed(2)}x (rounds: ${low.toFixed(2)}x … ${high.toFixed(2)}x)`);
