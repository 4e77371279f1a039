#!/usr/bin/env node
// The example's wall time on pool 'threads' with thread-cwd (vitest.config.ts) against pool 'forks' without setup
// (vitest.forks.config.ts), the user's other choice; and threads with cwdkit's packages loaded as from npm
// (scripts/vitest.npm-like.config.ts). One vitest process per run, in rounds of one run each, the order rotating every
// round, after one warm-up round; medians of each and of the per-round ratios to forks. Every run must pass.
// With --generated N: a generated project of N test files instead (scripts/generated.mjs, in .generated/), each of
// which reads a fixture file and spawns a child but never chdirs, so that pool 'threads' without the setup entry runs it
// too: threads with the setup entry (as from npm), threads without it, and forks. With --chdir as well, each file
// chdirs first (so bare threads are left out). CPU time (user, system) beside the wall time.
//   node scripts/measure.mjs [rounds=10] [--generated N [--chdir]] [--json file]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { generate } from './generated.mjs';

const app = path.join(import.meta.dirname, '..');
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonFile = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
const generatedAt = args.indexOf('--generated');
const generated = generatedAt >= 0 ? Number(args.splice(generatedAt, 2)[1]) : undefined;
const chdirAt = args.indexOf('--chdir');
const chdir = chdirAt >= 0 && args.splice(chdirAt, 1).length === 1;
if (chdir && generated === undefined) throw new Error('measure: --chdir goes with --generated N');
if (generated !== undefined && !(Number.isInteger(generated) && generated > 0)) {
  throw new Error('measure: --generated needs a positive number of test files');
}
const rounds = Number(args[0] ?? 10);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`measure: rounds must be a positive integer, not ${args[0]}`);

const project = generated === undefined ? app : generate(generated, path.join(app, '.generated'), { chdir });
const configs =
  generated === undefined
    ? {
        threads: 'vitest.config.ts',
        'threads (npm-like)': 'scripts/vitest.npm-like.config.ts',
        forks: 'vitest.forks.config.ts',
      }
    : {
        'threads + setup': 'vitest.threads.config.ts',
        // Bare threads cannot run files that chdir.
        ...(chdir ? {} : { 'threads, bare': 'vitest.bare.config.ts' }),
        forks: 'vitest.forks.config.ts',
      };
const names = Object.keys(configs);

/** One vitest process on `config`: its wall, user and system times in ms; stops the measurement if the run fails. */
function run(name) {
  const started = process.hrtime.bigint();
  const child = spawnSync(
    '/usr/bin/time',
    ['-f', 'cwdkit-time %U %S', process.execPath, vitest, 'run', '--config', configs[name]],
    { cwd: project, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) {
    process.stderr.write(`${child.stdout}${child.stderr}`);
    throw new Error(`measure: vitest on ${name} exited ${child.status ?? child.signal}`);
  }
  const [user, system] = /cwdkit-time ([\d.]+) ([\d.]+)/
    .exec(child.stderr)
    .slice(1)
    .map((s) => Number(s) * 1000);
  return { ms, user, system };
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
  `node ${process.version}, ${os.availableParallelism()} cpus, load ${load()}; ${rounds} rounds after a warm-up`,
);
for (const name of names) run(name);
const times = Object.fromEntries(names.map((name) => [name, []]));
const cpu = Object.fromEntries(names.map((name) => [name, { user: [], system: [] }]));
for (let round = 0; round < rounds; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]);
  for (const name of order) {
    const { ms, user, system } = run(name);
    times[name].push(ms);
    cpu[name].user.push(user);
    cpu[name].system.push(system);
  }
  console.log(`round ${round + 1}: ${names.map((name) => `${name} ${times[name][round].toFixed(0)} ms`).join(', ')}`);
}
const result = {
  node: process.version,
  ...(generated === undefined ? {} : { generated, chdir }),
  cpus: os.availableParallelism(),
  load: load(),
  rounds,
  configs: {},
  times,
  cpu,
};
for (const name of names) {
  const ratios = times[name].map((t, i) => t / times.forks[i]);
  result.configs[name] = {
    medianMs: median(times[name]),
    ratioToForks: median(times[name]) / median(times.forks),
    medianRoundRatio: median(ratios),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
    medianUserMs: median(cpu[name].user),
    medianSystemMs: median(cpu[name].system),
  };
  const { medianMs, ratioToForks, medianRoundRatio, ratioRange, medianUserMs, medianSystemMs } = result.configs[name];
  console.log(
    `${name}: median ${medianMs.toFixed(0)} ms, ${ratioToForks.toFixed(3)}x forks ` +
      `(median of round ratios ${medianRoundRatio.toFixed(3)}, range ${ratioRange.map((r) => r.toFixed(3)).join('-')}); ` +
      `CPU user ${medianUserMs.toFixed(0)} ms, system ${medianSystemMs.toFixed(0)} ms`,
  );
}
console.log(`load ${result.load}`);
if (jsonFile) fs.writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
