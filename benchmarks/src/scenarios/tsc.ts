import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { runtime } from '@cwdkit/core';
import { tempDirs } from '../fixtures.js';
import { same } from '../measure.js';
import type { Check, RowResult, RowRole, Scenario } from '../scenario.js';

const require = createRequire(import.meta.url);
/** The project's own TypeScript (5.9.3): a real, widely used tool, no new dependency. */
const TSC = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
/** The one-flag adoption users get: `--import cwdkit/register` (Node), `--preload` (Bun, Deno). */
const REGISTER = fileURLToPath(import.meta.resolve('cwdkit/register'));
/** cwdkit itself, for the probe that asks what the preload installed. */
const CWDKIT = import.meta.resolve('cwdkit');

/** A project of `files` modules in 10 folders, each importing the one before it, and its tsconfig. */
export function generateProject(root: string, files: number): void {
  fs.writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        target: 'es2022',
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ['src'],
    }),
  );
  fs.writeFileSync(path.join(root, 'package.json'), '{"type":"module","private":true}');
  const where = (i: number) => `src/d${i % 10}/m${i}`;
  for (let i = 0; i < files; i++) {
    const own = where(i);
    const imported =
      i === 0
        ? ''
        : `import { f${i - 1}, type I${i - 1} } from '${path.posix.relative(path.posix.dirname(own), where(i - 1))}.js';\n`.replace(
            "from 'm",
            "from './m",
          );
    const body =
      i === 0
        ? 'export interface I0 { readonly a: string }\nexport function f0(x: number): number { return x; }\n'
        : `export interface I${i} extends I${i - 1} { readonly v${i}: number }\n` +
          `export function f${i}(x: number): number { return f${i - 1}(x) + ${i}; }\n` +
          `export const c${i}: I${i} = { ...({} as I${i - 1}), v${i}: f${i}(${i}) };\n`;
    fs.mkdirSync(path.join(root, path.dirname(own)), { recursive: true });
    fs.writeFileSync(path.join(root, `${own}.ts`), imported + body);
  }
}

/** How this runtime runs a script, with cwdkit preloaded or not. */
function command(script: string, preload: boolean): { file: string; args: string[] } {
  if (runtime === 'deno')
    return { file: process.execPath, args: ['run', '-A', ...(preload ? ['--preload', REGISTER] : []), script] };
  if (runtime === 'bun') return { file: process.execPath, args: [...(preload ? ['--preload', REGISTER] : []), script] };
  return { file: process.execPath, args: [...(preload ? ['--import', REGISTER] : []), script] };
}

export const tsc: Scenario = {
  name: 'tsc',
  description:
    'tsc --noEmit (TypeScript 5.9.3) on a generated project, with and without cwdkit installed process-wide; one process per run, wall time',
  claim: 'a real tool end to end: does installing cwdkit change what a user waits for?',
  strategies: ['sab-atomics', 'native'],
  slow: true,
  async run(context) {
    // Quick runs: a smaller project, one run of each row per round.
    const files = context.minCpuTimeMs < 20 ? 100 : 300;
    const runs = context.minCpuTimeMs < 20 ? 1 : 3;
    const { root, remove } = tempDirs(0);
    try {
      generateProject(root, files);
      const env = { ...process.env, CWDKIT_STRATEGY: context.strategy.name, NO_COLOR: '1' };
      const time = (preload: boolean): number => {
        const { file, args } = command(TSC, preload);
        const started = performance.now();
        const result = spawnSync(file, [...args, '--noEmit', '-p', root], { cwd: root, env, encoding: 'utf8' });
        const ms = performance.now() - started;
        if (result.status !== 0) {
          throw new Error(`tsc failed (${preload ? 'with' : 'without'} cwdkit): ${result.stdout}${result.stderr}`);
        }
        return ms * 1e6;
      };
      // The preload really installs the strategy, on this runtime.
      const probeFile = path.join(root, 'probe.mjs');
      fs.writeFileSync(
        probeFile,
        `import { installed } from ${JSON.stringify(CWDKIT)};\nconsole.log(String(installed()));\n`,
      );
      const probe = command(probeFile, true);
      const said = execFileSync(probe.file, probe.args, { cwd: root, env, encoding: 'utf8' }).trim();
      const checks: Check[] = [same('the preload installs the strategy', said, context.strategy.name)];
      const rows: { key: string; label: string; role: RowRole; preload: boolean; ns: number[] }[] = [
        { key: 'baseline', label: `tsc --noEmit, ${files} files`, role: 'baseline', preload: false, ns: [] },
        {
          key: 'provider',
          label: `tsc --noEmit, ${files} files, cwdkit installed`,
          role: 'subject',
          preload: true,
          ns: [],
        },
        { key: 'control', label: `tsc --noEmit, ${files} files (A/A)`, role: 'control', preload: false, ns: [] },
      ];
      time(false); // a first run warms the file cache
      for (let run = 0; run < runs; run++) {
        for (const row of context.reverse ? [...rows].reverse() : rows) row.ns.push(time(row.preload));
      }
      const results: RowResult[] = rows.map(({ key, label, role, ns }) => {
        const sorted = [...ns].sort((a, b) => a - b);
        const p50 = sorted[(sorted.length - 1) >> 1] as number;
        const avg = ns.reduce((sum, value) => sum + value, 0) / ns.length;
        return {
          key,
          label,
          role,
          stats: {
            p50,
            min: sorted[0] as number,
            p99: sorted.at(-1) as number,
            avg,
            samples: ns.length,
            opsPerSample: 1,
          },
        };
      });
      return { rows: results, checks };
    } finally {
      remove();
    }
  },
};
