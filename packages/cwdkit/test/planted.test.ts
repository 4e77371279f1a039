// Nothing is loaded that the project did not install: each test plants code where an attacker could (an ancestor's
// node_modules, NODE_PATH, $HOME/.node_modules, a config file above the project, a FIFO, /dev/zero, a huge file, a file
// named like a builtin) and checks, in a real child process on Node, Bun and Deno, that selection never imports it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, installStrategyPackage, packageRoot, run, scratchDir, writeFile } from './helpers.js';

const bin = path.join(packageRoot, '../../node_modules/.bin');
type Runtime = readonly [name: string, command: string, args: readonly string[]];
const runtimes: Runtime[] = [
  ['Node', process.execPath, []],
  ['Bun', path.join(bin, 'bun'), []],
  ['Deno', path.join(bin, 'deno'), ['run', '-A']],
];

let top: string; // a world-writable-like folder above the project: /tmp/x
let project: string; // top/project: package.json, cwdkit and a fixture @cwdkit/naive installed
let marker: string; // a planted module writes this file when it is imported

/** A package that would win if it were loaded: it declares `name` and writes the marker when imported. */
function plant(nodeModules: string, packageName: string, name: string): void {
  const dir = path.join(nodeModules, packageName);
  writeFile(path.join(dir, 'package.json'), { name: packageName, main: 'index.mjs', cwdkit: { strategy: name } });
  writeFile(path.join(dir, 'index.mjs'), plantedModule(name));
}

function plantedModule(name: string): string {
  return `import fs from 'node:fs';
fs.writeFileSync(${JSON.stringify(marker)}, 'planted code ran');
export default { specVersion: 1, name: ${JSON.stringify(name)}, description: 'planted', create() { throw new Error('planted'); } };
`;
}

interface Outcome {
  strategy?: string;
  code?: string;
  message?: string;
}

/** Runs a selection in `cwd` with the project's cwdkit, on one runtime; returns what it chose or its error. */
async function select(
  runtime: Runtime,
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  call = 'createCwdProvider()',
): Promise<Outcome> {
  const [, command, args] = runtime;
  const script = path.join(project, 'select.mjs');
  const result = await run(command, [...args, script, call], { cwd, env });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Outcome;
}

beforeAll(() => {
  top = scratchDir('cwdkit-planted-');
  project = path.join(top, 'project');
  marker = path.join(top, 'MARKER');
  fs.mkdirSync(project);
  copyPackage(project);
  writeFile(path.join(project, 'package.json'), { name: 'app', private: true });
  installStrategyPackage(project, '@cwdkit/naive', 'naive');
  writeFile(
    path.join(project, 'select.mjs'),
    `import * as cwdkit from 'cwdkit';
try {
  const provider = await new Function('cwdkit', 'return cwdkit.' + process.argv[2])(cwdkit);
  console.log(JSON.stringify({ strategy: provider.strategy }));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
}
`,
  );
  // Planted above the project, where Node's own resolution from the cwd would look.
  plant(path.join(top, 'node_modules'), '@cwdkit/native', 'native');
  plant(path.join(top, 'node_modules'), '@cwdkit/sab-atomics', 'sab-atomics');
  plant(path.join(top, 'paths'), '@cwdkit/native', 'native'); // for NODE_PATH
  plant(path.join(top, 'home', '.node_modules'), '@cwdkit/native', 'native'); // for $HOME
  writeFile(path.join(top, 'evil.mjs'), plantedModule('evil'));
  fs.mkdirSync(path.join(top, 'outside', 'deep'), { recursive: true });
  fs.mkdirSync(path.join(project, 'src'));
});
afterAll(() => {
  fs.rmSync(top, { recursive: true, force: true });
});

function expectNothingRan(): void {
  expect(fs.existsSync(marker)).toBe(false);
}

describe.each(runtimes)('on %s', (...runtime: Runtime) => {
  it('a package planted in an ancestor of the project is not loaded (default list, CWDKIT_STRATEGY, argument)', async () => {
    for (const cwd of [project, path.join(project, 'src'), path.join(top, 'outside', 'deep')]) {
      expect(await select(runtime, cwd)).toEqual({ strategy: 'naive' });
      expect(await select(runtime, cwd, { CWDKIT_STRATEGY: 'native' })).toMatchObject({
        code: 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
      });
      expect(await select(runtime, cwd, {}, "createCwdProvider({ strategy: ['sab-atomics', 'naive'] })")).toEqual({
        strategy: 'naive',
      });
    }
    expectNothingRan();
  });

  it('NODE_PATH and $HOME/.node_modules are never looked in', async () => {
    const env = { NODE_PATH: path.join(top, 'paths'), HOME: path.join(top, 'home') };
    expect(await select(runtime, project, env)).toEqual({ strategy: 'naive' });
    expect(await select(runtime, project, { ...env, CWDKIT_STRATEGY: 'native' })).toMatchObject({
      code: 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
    });
    expectNothingRan();
  });

  it('a config file above the project root is not read; outside any project, only the cwd is searched', async () => {
    const config = writeFile(path.join(top, 'cwdkit.config.json'), { strategy: './evil.mjs' });
    try {
      expect(await select(runtime, path.join(project, 'src'))).toEqual({ strategy: 'naive' });
      expect(await select(runtime, path.join(top, 'outside', 'deep'))).toEqual({ strategy: 'naive' });
      // An unrelated, broken package.json above the project does not matter either (Bun and Deno themselves
      // refuse to start under one, so this part is Node's).
      if (runtime[0] === 'Node') {
        writeFile(path.join(top, 'package.json'), '{ "broken": ');
        expect(await select(runtime, path.join(project, 'src'))).toEqual({ strategy: 'naive' });
      }
    } finally {
      fs.rmSync(config);
      fs.rmSync(path.join(top, 'package.json'), { force: true });
    }
    expectNothingRan();
  });

  it('"strategy": "fs" does not import a file named fs', async () => {
    writeFile(path.join(project, 'fs'), plantedModule('fs'));
    writeFile(path.join(project, 'fs.js'), plantedModule('fs'));
    const config = writeFile(path.join(project, 'cwdkit.config.json'), { strategy: 'fs' });
    try {
      expect(await select(runtime, project)).toMatchObject({ code: 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED' });
    } finally {
      fs.rmSync(config);
    }
    expectNothingRan();
  });

  it.each([
    ['Native', 'native'],
    ['sab_atomics', 'sab-atomics'],
    ['native ', 'native'],
    ['mutex.', 'mutex'],
    ['nativ', 'native'],
  ])('the near miss %j stops a preference list with "did you mean %s"', async (typo, meant) => {
    const config = writeFile(path.join(project, 'cwdkit.config.json'), { strategy: [typo, 'naive'] });
    try {
      const outcome = await select(runtime, project);
      expect(outcome.code).toBe('ERR_CWDKIT_UNKNOWN_STRATEGY');
      expect(outcome.message).toContain(`did you mean "${meant}"?`);
    } finally {
      fs.rmSync(config);
    }
  });

  it('an unknown option key is refused, naming it and the keys the strategy takes', async () => {
    const config = writeFile(path.join(project, 'cwdkit.config.json'), {
      strategy: 'naive',
      options: { mdoe: 'strict' },
    });
    try {
      const outcome = await select(runtime, project);
      expect(outcome.code).toBe('ERR_INVALID_ARG_VALUE');
      expect(outcome.message).toContain('has no option "mdoe"');
      expect(outcome.message).toContain(config);
    } finally {
      fs.rmSync(config);
    }
  });

  it('a deleted cwd gives a provider, not a raw ENOENT', async () => {
    const gone = fs.mkdtempSync(path.join(top, 'gone-'));
    const script = path.join(project, 'deleted-cwd.mjs');
    writeFile(
      script,
      `import fs from 'node:fs';
import { createCwdProvider, createCwdProviderSync } from 'cwdkit';
process.chdir(${JSON.stringify(gone)});
fs.rmdirSync(${JSON.stringify(gone)});
const results = [];
for (const make of [() => createCwdProvider(), async () => createCwdProviderSync()]) {
  try { results.push((await make()).strategy); } catch (error) { results.push(error.code); }
}
process.chdir(${JSON.stringify(project)});
console.log(JSON.stringify(results));
`,
    );
    const [, command, args] = runtime;
    const result = await run(command, [...args, script], { cwd: project });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(['naive', 'naive']);
  });
});

describe('files that are not small regular files', () => {
  const canMkfifo = fs.existsSync('/usr/bin/mkfifo');
  it.skipIf(!canMkfifo)('a FIFO named cwdkit.config.json: ERR_CWDKIT_CONFIG_FILE, no hang', async () => {
    const config = path.join(project, 'cwdkit.config.json');
    execFileSync('mkfifo', [config]);
    try {
      for (const runtime of runtimes) {
        const outcome = await select(runtime, project);
        expect(outcome).toEqual({
          code: 'ERR_CWDKIT_CONFIG_FILE',
          message: `cwdkit config file ${config} is not a regular file`,
        });
      }
    } finally {
      fs.rmSync(config);
    }
  });

  it('/dev/zero behind .cwdkitrc.json, and a file over 1 MiB: ERR_CWDKIT_CONFIG_FILE', async () => {
    const config = path.join(project, '.cwdkitrc.json');
    fs.symlinkSync('/dev/zero', config);
    try {
      for (const runtime of runtimes) {
        expect(await select(runtime, project)).toEqual({
          code: 'ERR_CWDKIT_CONFIG_FILE',
          message: `cwdkit config file ${config} is not a regular file`,
        });
      }
      fs.rmSync(config);
      fs.writeFileSync(config, `{"strategy": "naive"}${' '.repeat(1024 * 1024)}`);
      for (const runtime of runtimes) {
        const outcome = await select(runtime, project);
        expect(outcome.code).toBe('ERR_CWDKIT_CONFIG_FILE');
        expect(outcome.message).toContain('is larger than 1048576 bytes');
      }
    } finally {
      fs.rmSync(config, { force: true });
    }
  });

  it('`cwdkit which` never runs a planted package either', async () => {
    const result = await run(path.join(project, 'node_modules/cwdkit/bin/cwdkit.js'), ['which', '--json'], {
      cwd: path.join(project, 'src'),
      env: { NODE_PATH: path.join(top, 'paths'), HOME: path.join(top, 'home') },
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout).strategy).toBe('naive');
    expectNothingRan();
  });
});
