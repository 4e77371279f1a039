// Real programs, with and without the one flag: prettier --check, eslint and tsc --noEmit on tens of generated files
// (short commands, where start-up matters), and a module resolver that calls path.resolve by the hundred thousand.
// One process per run, wall time; the flag is NODE_OPTIONS=--import=<register's file URL> on Node (what every child of
// an npm script inherits), --preload on Bun and Deno.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { tempDirs } from '../fixtures.js';
import { same } from '../measure.js';
import type { Check, Scenario, ScenarioContext } from '../scenario.js';
import { cleanEnv, installedBy, launch, measureProcesses, type ProcessRow, REGISTER } from './processes.js';

const require = createRequire(import.meta.url);
/** A file of a package this workspace pins (devDependencies), found by resolution. */
const fileOf = (name: string, file: string) => path.join(path.dirname(require.resolve(`${name}/package.json`)), file);

/** A real program: what it runs on, in a fresh project it writes for itself. */
export interface RealProgram {
  /** The scenario's name, real-<name>. */
  readonly name: string;
  /** What a row is called, e.g. "prettier --check, 50 files". */
  readonly label: (size: number) => string;
  readonly description: string;
  /** Input size: quick, full. */
  readonly sizes: readonly [number, number];
  /** Writes the project into `root` and returns the program and its arguments. */
  setUp(root: string, size: number): { readonly script: string; readonly args: readonly string[] };
}

/** A module that lint and format pass as it is (prettier's style; no unused variable; ===). */
function jsModule(i: number): string {
  return [
    'import { join } from "node:path";',
    '',
    `export function f${i}(a, b) {`,
    '  const x = a + b;',
    `  if (x === ${i}) return join(String(x), "m${i}");`,
    '  return [x, a, b].map((v) => v + 1).join(",");',
    '}',
    '',
    `export const c${i} = { name: "m${i}", size: ${i * 7}, tags: ["a", "b"] };`,
    '',
  ].join('\n');
}

function jsProject(root: string, files: number): void {
  fs.writeFileSync(path.join(root, 'package.json'), '{"type":"module","private":true}\n');
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, 'src', `d${i % 5}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `m${i}.js`), jsModule(i));
  }
}

const prettier: RealProgram = {
  name: 'prettier',
  label: (files) => `prettier --check, ${files} files`,
  description: 'prettier 3.10.1 --check on generated modules',
  sizes: [10, 50],
  setUp(root, files) {
    jsProject(root, files);
    return { script: fileOf('prettier', 'bin/prettier.cjs'), args: ['--check', 'src'] };
  },
};

const eslint: RealProgram = {
  name: 'eslint',
  label: (files) => `eslint (flat config), ${files} files`,
  description: 'eslint 10.15.0 with a flat config of core rules on generated modules',
  sizes: [10, 50],
  setUp(root, files) {
    jsProject(root, files);
    fs.writeFileSync(
      path.join(root, 'eslint.config.js'),
      `export default [{ files: ['**/*.js'], rules: { 'no-unused-vars': 'error', 'no-undef': 'off', eqeqeq: 'error', 'prefer-const': 'error', 'no-var': 'error' } }];\n`,
    );
    return { script: fileOf('eslint', 'bin/eslint.js'), args: ['src'] };
  },
};

/** A project of `files` modules in 10 folders, each importing the one before it, and its tsconfig. */
function generateProject(root: string, files: number): void {
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

const typescript: RealProgram = {
  name: 'tsc',
  label: (files) => `tsc --noEmit, ${files} files`,
  description: 'tsc --noEmit (TypeScript 5.9.3) on a generated project',
  sizes: [10, 40],
  setUp(root, files) {
    generateProject(root, files);
    return { script: fileOf('typescript', 'bin/tsc'), args: ['--noEmit', '-p', '.'] };
  },
};

/**
 * resolve 1.22 (browserify's resolver) resolving three specifiers per source file (a sibling, a package, a package's
 * file) from the file's folder as given relative: counted on Node 24 with a preload that wraps both functions, ~6.4
 * path.resolve and 1 process.cwd() calls per resolution, the most calls per ms of the resolvers and globbers tried
 * (resolve: ~150 per ms; enhanced-resolve 5.27 ~6; fast-glob 3.3 ~45; tinyglobby 0.2 ~2).
 */
const resolver: RealProgram = {
  name: 'resolve',
  label: (files) => `resolve.sync, ${(files * 3).toLocaleString('en-US')} specifiers`,
  description: 'resolve 1.22.14 (a module resolver) resolving 3 specifiers for each of the generated files',
  sizes: [500, 6000],
  setUp(root, files) {
    const packages = 100;
    fs.writeFileSync(path.join(root, 'package.json'), '{"private":true}\n');
    for (let p = 0; p < packages; p++) {
      const dir = path.join(root, 'node_modules', `pkg${p}`);
      fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `pkg${p}`, main: 'lib/index.js' }));
      fs.writeFileSync(path.join(dir, 'lib/index.js'), 'module.exports = 1;\n');
      fs.writeFileSync(path.join(dir, 'lib/util.js'), 'module.exports = 1;\n');
    }
    const folder = (i: number) => `src/d${i % 20}/e${i % 7}`;
    for (let i = 0; i < files; i++) {
      fs.mkdirSync(path.join(root, folder(i)), { recursive: true });
      fs.writeFileSync(path.join(root, folder(i), `m${i}.js`), 'module.exports = 1;\n');
    }
    const script = path.join(root, 'resolve-all.cjs');
    fs.writeFileSync(
      script,
      `const resolve = require(${JSON.stringify(fileOf('resolve', 'index.js'))});
let found = 0;
for (let i = 0; i < ${files}; i++) {
  const basedir = 'src/d' + (i % 20) + '/e' + (i % 7);
  for (const specifier of ['./m' + i, 'pkg' + (i % ${packages}), 'pkg' + ((i * 7) % ${packages}) + '/lib/util']) {
    if (resolve.sync(specifier, { basedir })) found++;
  }
}
if (found !== ${files * 3}) throw new Error('resolved ' + found);
`,
    );
    return { script, args: [] };
  },
};

/**
 * A CommonJS program that stats paths that do not exist, as module resolution does by the thousand (tsc among them):
 * on Deno a preload's require() calls once made every later failing statSync of such a program 25% slower (issue #21),
 * and tsc with the flag measured 1.01-1.05× there (issue #29): a row that would show it.
 */
const statMisses: RealProgram = {
  name: 'stat-misses',
  label: (calls) => `fs.statSync of missing paths, ${calls.toLocaleString('en-US')} calls (CommonJS)`,
  description: 'a CommonJS program that calls fs.statSync on paths that do not exist, in a try/catch',
  sizes: [20_000, 200_000],
  setUp(root, calls) {
    fs.writeFileSync(path.join(root, 'package.json'), '{"private":true}\n');
    const script = path.join(root, 'stat-misses.cjs');
    fs.writeFileSync(
      script,
      `const fs = require('node:fs');
let missing = 0;
for (let i = 0; i < ${calls}; i++) {
  try {
    fs.statSync('src/missing-' + (i % 997) + '.ts');
  } catch (error) {
    if (error.code === 'ENOENT') missing++;
  }
}
if (missing !== ${calls}) throw new Error('found ' + (${calls} - missing));
`,
    );
    return { script, args: [] };
  },
};

/**
 * The scenario for one program: bare, with the flag (`register`; tests hand it a fixture), and (full runs) bare again
 * as the A/A control.
 */
export function realProgramScenario(program: RealProgram, register: string = REGISTER): Scenario {
  return {
    name: `real-${program.name}`,
    description: `${program.description}, with and without cwdkit/register (NODE_OPTIONS on Node, --preload on Bun and Deno); one process per run, wall time`,
    claim: 'issue #21: a real program is never slower with the flag, and faster where the runtime is slow',
    // What the flag installs with no configuration (the default list's first): one strategy, so that a recording has
    // time for 10 rounds of each program.
    strategies: ['native'],
    // A run of eslint or tsc is most of a second: --quick (CI) leaves these out unless they are named.
    slow: true,
    // A re-run costs the job again; the interval over rounds shows the noise (the control is still measured).
    aaRetries: 0,
    async run(context: ScenarioContext) {
      const quick = context.minCpuTimeMs < 20;
      const size = program.sizes[quick ? 0 : 1];
      const { root, remove } = tempDirs(0);
      try {
        const { script, args } = program.setUp(root, size);
        const env = cleanEnv({ CWDKIT_STRATEGY: context.strategy.name });
        const bare = launch(script, args, undefined, env);
        const flagged = launch(script, args, register, env, 'env');
        // The flag really installs the strategy in a program started this way, on this runtime.
        const said = installedBy(
          path.join(root, 'probe.mjs'),
          (probe) => launch(probe, [], register, env, 'env'),
          root,
        );
        const checks: Check[] = [same('the flag installs the strategy', said, context.strategy.name)];
        const label = program.label(size);
        const rows: ProcessRow[] = [
          { key: 'baseline', label, role: 'baseline', command: bare, cwd: root },
          { key: 'provider', label: `${label}, cwdkit/register`, role: 'subject', command: flagged, cwd: root },
          // A quick run (named on the command line) leaves the A/A control out: two runs are its whole budget.
          ...(quick
            ? []
            : [{ key: 'control', label: `${label} (A/A)`, role: 'control' as const, command: bare, cwd: root }]),
        ];
        // One timed run a row per round: the interval over 10 rounds is the figure, and it is what a run's time buys.
        const results = measureProcesses(rows, {
          runs: 1,
          rssRuns: 0,
          warmUp: !quick,
          reverse: context.reverse,
        });
        return { rows: results, checks };
      } finally {
        remove();
      }
    },
  };
}

/** The programs, in the order the report shows them. */
export const programs: readonly RealProgram[] = [prettier, eslint, typescript, resolver, statMisses];
export const realPrograms: readonly Scenario[] = programs.map((program) => realProgramScenario(program));
