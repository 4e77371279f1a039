#!/usr/bin/env node
// The most a cwd cache can save each real program of the bench (issue #21 item 2: "a measured gain on Deno"): how
// often the program reads the cwd (process.cwd() and path.resolve calls, counted by a preload that wraps both; on Node
// after syncBuiltinESMExports, so ESM named imports count too), times what one read costs bare minus installed
// (timed here in the same runtime), against the program's own wall time. Every figure is measured on this machine.
//   node benchmarks/scripts/cwd-reads.mjs [--runtime node24,bun,deno] [--runs 3]
// Build first (npx turbo run build): the programs' inputs come from benchmarks/dist, the install from cwdkit's dist.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const benchmarks = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const repo = path.dirname(benchmarks);
const { values } = parseArgs({
  options: { runtime: { type: 'string', default: 'node24,bun,deno' }, runs: { type: 'string', default: '3' } },
});
const runs = Number(values.runs);
const bins = {
  node: process.execPath,
  node22: path.join(repo, 'node_modules/node22/bin/node'),
  node24: path.join(repo, 'node_modules/node24/bin/node'),
  node26: path.join(repo, 'node_modules/node26/bin/node'),
  bun: path.join(repo, 'node_modules/.bin/bun'),
  deno: path.join(repo, 'node_modules/.bin/deno'),
};
const cwdkit = pathToFileURL(path.join(repo, 'packages/cwdkit/dist/index.js')).href;
const { programs } = await import(pathToFileURL(path.join(benchmarks, 'dist/index.js')).href);

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-cwd-reads-')));
// A package.json and a node_modules folder: Deno then resolves cwdkit's own imports the npm way, from its files.
fs.writeFileSync(path.join(work, 'package.json'), '{"private":true}\n');
fs.mkdirSync(path.join(work, 'node_modules'));
const write = (name, text) => {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
};

// The counter: relative resolves read the cwd; the others (an absolute argument first) are what install() also
// replaces, and cost it or save it a little.
const counter = write(
  'count.mjs',
  `import process from 'node:process';
import path from 'node:path';
import module from 'node:module';
const n = { cwd: 0, relative: 0, absolute: 0 };
const cwd = process.cwd;
process.cwd = function () { n.cwd++; return cwd.call(this); };
const resolve = path.resolve;
path.resolve = function (...args) {
  if (args.some((arg) => typeof arg === 'string' && arg.startsWith('/'))) n.absolute++; else n.relative++;
  return resolve.apply(this, args);
};
if (!globalThis.Deno) module.syncBuiltinESMExports?.();
process.on('exit', () => { if (process.env.CWD_READS_OUT) module.createRequire(import.meta.url)('node:fs').writeFileSync(process.env.CWD_READS_OUT, JSON.stringify(n)); });
`,
);

// One read, bare and installed: the fastest of 5 blocks of 2e5 calls per kind.
const perCall = write(
  'per-call.mjs',
  `import process from 'node:process';
import path from 'node:path';
if (process.env.CWD_READS_INSTALL) {
  const { install, createCwdProviderSync } = await import(${JSON.stringify(cwdkit)});
  install(createCwdProviderSync());
}
const here = process.cwd();
const kinds = {
  cwd: () => process.cwd(),
  relative: () => path.resolve('src/d1', 'm1.js'),
  absolute: () => path.resolve(here, here, 'node_modules/pkg1'),
};
const out = {};
for (const [kind, call] of Object.entries(kinds)) {
  let best = Infinity;
  for (let block = 0; block < 5; block++) {
    const started = performance.now();
    for (let i = 0; i < 2e5; i++) call();
    best = Math.min(best, ((performance.now() - started) * 1e6) / 2e5);
  }
  out[kind] = best;
}
console.log(JSON.stringify(out));
`,
);

function run(bin, args, options = {}) {
  const result = spawnSync(bin, args, {
    encoding: 'utf8',
    ...options,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  if (result.status !== 0)
    throw new Error(`${path.basename(bin)} ${args.join(' ')}: exit ${result.status}\n${result.stderr}`);
  return result;
}
const argsFor = (runtime, script, rest, preload) =>
  runtime === 'deno'
    ? ['run', '-A', ...(preload ? ['--preload', preload] : []), script, ...rest]
    : [...(preload ? [runtime === 'bun' ? '--preload' : '--import', preload] : []), script, ...rest];
const median = (list) => [...list].sort((a, b) => a - b)[list.length >> 1];

console.log(`# The most a cwd cache can save each real program: reads × (bare − installed), ${runs} runs`);
console.log(
  'runtime | program | wall ms (median) | cwd reads | relative resolves | other resolves | saved at most | of wall',
);
console.log('---|---|---|---|---|---|---|---');
try {
  for (const runtime of values.runtime.split(',')) {
    const bin = bins[runtime];
    const cost = (install) =>
      JSON.parse(run(bin, argsFor(runtime, perCall, []), { cwd: work, env: { CWD_READS_INSTALL: install } }).stdout);
    const bare = cost('');
    const installed = cost('1');
    const saving = Object.fromEntries(Object.keys(bare).map((kind) => [kind, bare[kind] - installed[kind]]));
    for (const program of programs) {
      const root = path.join(work, `${runtime}-${program.name}`);
      fs.mkdirSync(root);
      const { script, args } = program.setUp(root, program.sizes[1]);
      const out = path.join(work, 'counts.json');
      run(bin, argsFor(runtime, script, args, counter), { cwd: root, env: { CWD_READS_OUT: out } });
      const n = JSON.parse(fs.readFileSync(out, 'utf8'));
      const walls = [];
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        run(bin, argsFor(runtime, script, args), { cwd: root });
        walls.push(performance.now() - started);
      }
      const wall = median(walls);
      const saved = (n.cwd * saving.cwd + n.relative * saving.relative + n.absolute * saving.absolute) / 1e6;
      console.log(
        [runtime, program.label(program.sizes[1]), wall.toFixed(0), n.cwd, n.relative, n.absolute]
          .concat([`${saved.toFixed(2)} ms`, `${((100 * saved) / wall).toFixed(2)}%`])
          .join(' | '),
      );
    }
    const ns = (kind) => `${kind} ${bare[kind].toFixed(0)} → ${installed[kind].toFixed(0)} ns`;
    console.log(
      `${runtime} | one read, bare → installed: ${['cwd', 'relative', 'absolute'].map(ns).join('; ')} | | | | | |`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
