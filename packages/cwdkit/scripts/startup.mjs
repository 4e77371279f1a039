#!/usr/bin/env node
// What `cwdkit/register` adds to start-up over preloading an empty module the same way, on Node, Bun and Deno.
// A fresh project in a temporary folder gets the built cwdkit, @cwdkit/core and the strategies in its node_modules,
// as npm would install them. Every run is one process of an empty app; the variants alternate (the order rotates
// each round) and the report gives medians: wall time, CPU time (user + sys, less sensitive to a busy machine) and
// peak RSS, measured by a tiny Python timer around fork/exec/wait4 (µs CPU, unlike /usr/bin/time's 10 ms steps), and
// the median of the paired differences variant − empty.
//
//   node packages/cwdkit/scripts/startup.mjs [--rounds 30] [--runtime node24,bun,deno] [--config none,file,env]
//        [--strategies sab-atomics,mutex] [--extra <preload module path>] [--from <another checkout>]
//
// --config: none (no config file: the default preference list), file (cwdkit.config.json names the first
// strategy), env (CWDKIT_STRATEGY names it). --extra adds a third variant, a preload of that file (e.g. one that
// imports only node:worker_threads, to measure the floor). --from adds the register of another checkout of the
// repository (e.g. main; repeatable), each in a project of its own, alternating with this one's: before and after
// measured in the same rounds.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '../../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '30' },
    runtime: { type: 'string', default: 'node24,bun,deno' },
    config: { type: 'string', default: 'none,file,env' },
    strategies: { type: 'string', default: 'sab-atomics' },
    extra: { type: 'string', multiple: true, default: [] },
    from: { type: 'string', multiple: true, default: [] },
  },
});
const rounds = Number(values.rounds);
const strategies = values.strategies.split(',');

const runtimes = {
  node24: { bin: path.join(root, 'node_modules/node24/bin/node'), args: (m) => ['--import', m] },
  node22: { bin: path.join(root, 'node_modules/node22/bin/node'), args: (m) => ['--import', m] },
  node: { bin: process.execPath, args: (m) => ['--import', m] },
  bun: { bin: path.join(root, 'node_modules/.bin/bun'), args: (m) => ['--preload', m] },
  deno: {
    bin: path.join(root, 'node_modules/.bin/deno'),
    args: (m) => ['run', '--preload', m.startsWith('.') ? m : `npm:${m}`, '-A'],
  },
};

/** A fresh project in a temporary folder with the built packages of `checkout` in its node_modules. */
function makeProject(checkout) {
  const packages = path.join(checkout, 'packages');
  const project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-startup-')));
  const copy = (from, to, parts) => {
    for (const part of parts) {
      const source = path.join(packages, from, part);
      if (fs.existsSync(source)) fs.cpSync(source, path.join(project, 'node_modules', to, part), { recursive: true });
    }
  };
  copy('cwdkit', 'cwdkit', ['dist', 'bin', 'register', 'package.json']);
  copy('core', '@cwdkit/core', ['dist', 'package.json']);
  for (const name of strategies) copy(name, `@cwdkit/${name}`, ['dist', 'prebuilds', 'build', 'package.json']);
  const dependencies = Object.fromEntries([
    ['cwdkit', '0.0.0'],
    ...strategies.map((name) => [`@cwdkit/${name}`, '0.0.0']),
  ]);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies }));
  fs.writeFileSync(path.join(project, 'empty.mjs'), '');
  fs.writeFileSync(path.join(project, 'app.mjs'), '');
  return project;
}
const project = makeProject(root);
const others = values.from.map((checkout) => ({
  label: path.basename(path.resolve(checkout)),
  project: makeProject(path.resolve(checkout)),
}));
const projects = [project, ...others.map((other) => other.project)];
const extras = values.extra.map((file, index) => {
  const name = `extra${index}.mjs`;
  fs.copyFileSync(path.resolve(file), path.join(project, name));
  return { label: path.basename(file), module: `./${name}` };
});

// Prints "<wall ns> <user+sys µs> <max RSS KiB>" of one child on fd 3, after the child's own output.
const TIMER = `import os, sys, time
t = time.perf_counter_ns()
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter_ns() - t
os.write(3, f"{wall} {round((ru.ru_utime + ru.ru_stime) * 1e6)} {ru.ru_maxrss} {os.waitstatus_to_exitcode(status)}".encode())`;

function once(runtime, module, env, cwd = project) {
  const { bin, args } = runtimes[runtime];
  const result = spawnSync('python3', ['-S', '-c', TIMER, bin, ...args(module), 'app.mjs'], {
    cwd,
    env: { ...process.env, NODE_OPTIONS: '', CWDKIT_STRATEGY: '', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const [wall, cpu, rss, code] = String(result.output[3]).split(' ').map(Number);
  // thread-cwd's one warning on Bun and Deno (workers there cannot have a cwd of their own) is expected output.
  const stderr = result.stderr.replace(/^.*\[CWDKIT_THREAD_CWD_PROCESS_SCOPE\].*\n(?:\(Use `.*\n)?/m, '');
  if (result.status !== 0 || code !== 0 || stderr !== '' || result.stdout !== '') {
    throw new Error(`${runtime} ${module} failed (${code}): ${result.stderr}${result.stdout}`);
  }
  return { wall: wall / 1e6, cpu: cpu / 1000, rss: rss / 1024 };
}

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fmt = (value, digits = 2) => (value >= 0 ? ' ' : '') + value.toFixed(digits);

console.log(`# cwdkit/register start-up, ${rounds} alternating rounds, medians (load ${os.loadavg()[0].toFixed(1)})`);
console.log('runtime | config | variant | wall ms | cpu ms | rss MiB | Δwall (paired) | Δcpu | Δrss');
for (const runtime of values.runtime.split(',')) {
  for (const config of values.config.split(',')) {
    for (const folder of projects) {
      fs.rmSync(path.join(folder, 'cwdkit.config.json'), { force: true });
      if (config === 'file') {
        fs.writeFileSync(path.join(folder, 'cwdkit.config.json'), JSON.stringify({ strategy: strategies[0] }));
      }
    }
    const env = config === 'env' ? { CWDKIT_STRATEGY: strategies[0] } : {};
    const variants = [
      { label: 'empty', module: './empty.mjs' },
      { label: 'register', module: 'cwdkit/register' },
    ];
    variants.push(...extras);
    for (const other of others)
      variants.push({ label: `register@${other.label}`, module: 'cwdkit/register', cwd: other.project });
    for (const variant of variants) once(runtime, variant.module, env, variant.cwd); // warm the file cache
    const samples = variants.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < variants.length; k++) {
        const index = (k + round) % variants.length;
        samples[index].push(once(runtime, variants[index].module, env, variants[index].cwd));
      }
    }
    const base = samples[0];
    variants.forEach((variant, index) => {
      const list = samples[index];
      const pick = (key) => median(list.map((sample) => sample[key]));
      const delta = (key) => median(list.map((sample, round) => sample[key] - base[round][key]));
      console.log(
        [runtime, config, variant.label, fmt(pick('wall')), fmt(pick('cpu')), fmt(pick('rss'), 1)]
          .concat(index === 0 ? ['', '', ''] : [fmt(delta('wall')), fmt(delta('cpu')), fmt(delta('rss'), 1)])
          .join(' | '),
      );
    });
  }
}
for (const folder of projects) fs.rmSync(folder, { recursive: true, force: true });
