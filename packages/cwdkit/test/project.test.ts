// Selection as a user's project sees it: cwdkit and @cwdkit/core copied into a fresh node_modules (not symlinked, so
// nothing of the workspace is found), real child processes, the built ESM and CommonJS files and the `cwdkit` bin.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STRATEGIES } from '../src/index.js';
import { copyPackage, installStrategyPackage, packageRoot, run, scratchDir, writeFile } from './helpers.js';

const node = process.execPath;

function project(): string {
  const root = scratchDir('cwdkit-project-');
  fs.chmodSync(root, 0o755); // readable by `nobody` for the EACCES test
  copyPackage(root);
  writeFile(path.join(root, 'package.json'), { name: 'app', private: true });
  return root;
}

/** Runs ESM code in the project and returns what it printed: the selection, or the error's code and message. */
async function select(cwd: string, call: string, env: NodeJS.ProcessEnv = {}) {
  const code = `import { ${call.split('(')[0]} } from 'cwdkit';
try { const s = await ${call}; console.log(JSON.stringify({ name: s.definition?.name ?? s.strategy, skipped: s.skipped?.map((x) => [x.request, x.error.code]) })); }
catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }`;
  const result = await run(node, ['--input-type=module', '-e', code], { cwd, env });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout);
}

let empty: string; // only cwdkit installed
let app: string; // cwdkit and a fixture @cwdkit/naive
const cli = (root: string) => path.join(root, 'node_modules/cwdkit/bin/cwdkit.js');

beforeAll(() => {
  empty = project();
  app = project();
  installStrategyPackage(app, '@cwdkit/naive', 'naive', 'cjs');
});
afterAll(() => {
  for (const root of [empty, app]) fs.rmSync(root, { recursive: true, force: true });
});

describe('in a project with only cwdkit', () => {
  it('a registered name that is not installed says what to install', async () => {
    expect(await select(empty, "createCwdProvider({ strategy: 'mutex' })")).toEqual({
      code: 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
      message: 'The cwdkit strategy "mutex" is not installed: npm install @cwdkit/mutex',
    });
  });

  it('the default list: none installed, and the error lists each with its install command', async () => {
    const { code, message } = await select(empty, 'createCwdProvider()');
    expect(code).toBe('ERR_CWDKIT_NO_STRATEGY');
    expect(message).toContain(`the default list (${DEFAULT_STRATEGIES.join(', ')})`);
    for (const name of DEFAULT_STRATEGIES) expect(message).toContain(`  - ${name}: `);
    for (const name of DEFAULT_STRATEGIES) expect(message).toContain(`npm install @cwdkit/${name}`);
  });

  it('`cwdkit which` reports the failure on stderr with its code and exits 1', async () => {
    const result = await run(cli(empty), ['which'], { cwd: empty });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^cwdkit: No cwdkit strategy could be loaded[\s\S]*\[ERR_CWDKIT_NO_STRATEGY\]\n$/);
  });
});

describe('in a project with @cwdkit/naive installed', () => {
  it('the default list falls through to the first installed strategy', async () => {
    expect(await select(app, 'selectStrategy()')).toEqual({
      name: 'naive',
      skipped: DEFAULT_STRATEGIES.slice(0, DEFAULT_STRATEGIES.indexOf('naive')).map((name) => [
        name,
        'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
      ]),
    });
  });

  const bin = path.join(packageRoot, '../../node_modules/.bin');
  it.each([
    ['Node', node, []],
    ['Bun', path.join(bin, 'bun'), []],
    ['Deno', path.join(bin, 'deno'), ['run', '-A']],
  ])('selection works on %s, async and sync', async (_runtime, command, args) => {
    const script = writeFile(
      path.join(app, `select-${_runtime}.mjs`),
      `import { createCwdProvider, createCwdProviderSync } from 'cwdkit';
const chosen = await createCwdProvider();
console.log(JSON.stringify([chosen.strategy, chosen.cwd(), createCwdProviderSync({ strategy: 'naive' }).strategy]));\n`,
    );
    const result = await run(command, [...args, script], { cwd: app });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(['naive', app, 'naive']);
  });

  it('createCwdProviderSync works from CommonJS (the CJS build)', async () => {
    const code = `const { createCwdProviderSync } = require('cwdkit');
console.log(require.resolve('cwdkit'), createCwdProviderSync().strategy, createCwdProviderSync({ strategy: './local.cjs' }).strategy);`;
    writeFile(
      path.join(app, 'local.cjs'),
      "exports.default = { specVersion: 1, name: 'local', description: 'd', create: () => ({ strategy: 'local' }) };\n",
    );
    const result = await run(node, ['-e', code], { cwd: app });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe(`${path.join(app, 'node_modules/cwdkit/dist/index.cjs')} naive local`);
  });

  it('`cwdkit which` prints the strategy, where the choice came from and its capabilities', async () => {
    const sub = path.join(app, 'packages', 'web');
    fs.mkdirSync(sub, { recursive: true });
    const config = writeFile(path.join(app, 'cwdkit.config.json'), {
      strategy: ['sab-atomics', 'naive'],
      options: { x: 1 },
    });
    try {
      const text = await run(cli(app), ['which'], { cwd: sub });
      expect(text.stderr).toBe('');
      expect(text.code).toBe(0);
      const lines = text.stdout.split('\n');
      // Measured in a worker of a fresh process: a number, so matched by shape.
      expect(lines.splice(-2, 1)[0]).toMatch(
        /^cold workers {2}[\d.]+ ns a cwd\(\) in a worker whose main thread never loaded naive \(the worker's process\.cwd\(\): [\d.]+ ns\)/,
      );
      expect(lines.join('\n')).toBe(
        [
          'strategy      naive',
          `module        ${path.join(app, 'node_modules/@cwdkit/naive/index.cjs')}`,
          `chosen by     ${config}`,
          'options       {"x":1}',
          'skipped       sab-atomics: The cwdkit strategy "sab-atomics" is not installed: npm install @cwdkit/sab-atomics',
          'capabilities  workerCoherent: false, chdirFromWorker: false, externalChange: immediate',
          'installed     nothing (to install it: node "$(npx cwdkit flag)" app.js (its workers too, wherever the app chdirs), or NODE_OPTIONS="$(npx cwdkit flag)" for child processes too)',
          '',
        ].join('\n'),
      );
      const json = await run(cli(app), ['which', '--json'], { cwd: sub, env: { CWDKIT_STRATEGY: 'naive' } });
      expect(JSON.parse(json.stdout)).toEqual({
        coldWorker: { cwdNs: expect.any(Number), runtimeNs: expect.any(Number) },
        strategy: 'naive',
        request: 'naive',
        module: path.join(app, 'node_modules/@cwdkit/naive/index.cjs'),
        source: { kind: 'environment', variable: 'CWDKIT_STRATEGY' },
        skipped: [],
        capabilities: { workerCoherent: false, chdirFromWorker: false, externalChange: 'immediate' },
        installed: null,
      });
    } finally {
      fs.rmSync(config);
    }
  });

  it('`cwdkit which` measures a cold worker and exits when the strategy prints and leaves a timer running', async () => {
    const dir = installStrategyPackage(app, 'cwdkit-noisy', 'noisy');
    // Printed on stdout by every thread that loads it, and a timer that would keep the probe's process alive.
    fs.appendFileSync(path.join(dir, 'index.mjs'), 'console.log(\'{"cwdNs": 1}\'); setInterval(() => {}, 1000);\n');
    try {
      const json = await run(cli(app), ['which', '--json'], { cwd: app, env: { CWDKIT_STRATEGY: 'noisy' } });
      expect(json.code).toBe(0);
      const report = JSON.parse(json.stdout.slice(json.stdout.indexOf('{\n')));
      expect(report.strategy).toBe('noisy');
      expect(report.coldWorker).toEqual({ cwdNs: expect.any(Number), runtimeNs: expect.any(Number) });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('`cwdkit which --json` that cannot select prints the error as JSON on stdout, and its line on stderr', async () => {
    const result = await run(cli(app), ['which', '--json'], { cwd: app, env: { CWDKIT_STRATEGY: 'nativ' } });
    expect(result.code).toBe(1);
    const { error } = JSON.parse(result.stdout);
    expect(error).toEqual({ code: 'ERR_CWDKIT_UNKNOWN_STRATEGY', message: expect.stringContaining('"nativ"') });
    expect(result.stderr).toBe(`cwdkit: ${error.message} [ERR_CWDKIT_UNKNOWN_STRATEGY]\n`);
  });

  it.each([[['frobnicate']], [[]], [['which', 'extra']], [['--frob']]])(
    '`cwdkit %j` prints the usage and exits 2',
    async (args) => {
      const result = await run(cli(app), args, { cwd: app });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('Usage: cwdkit <command> [options]');
    },
  );

  it('the committed bin shim, before the package is built, says to build it (no registry, no stack trace)', async () => {
    const unbuilt = scratchDir('cwdkit-unbuilt-');
    try {
      for (const part of ['bin', 'package.json']) {
        fs.cpSync(path.join(packageRoot, part), path.join(unbuilt, part), { recursive: true });
      }
      const result = await run(path.join(unbuilt, 'bin/cwdkit.js'), ['--version'], { cwd: unbuilt });
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: 'cwdkit: the package is not built yet: run `npm run build` first\n',
      });
    } finally {
      fs.rmSync(unbuilt, { recursive: true, force: true });
    }
  });

  it('`cwdkit wihch` says what was meant', async () => {
    const result = await run(cli(app), ['wihch'], { cwd: app });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^cwdkit: unknown command "wihch" \(did you mean "which"\?\)/);
  });

  it('`cwdkit --version` prints the package version', async () => {
    const result = await run(cli(app), ['--version'], { cwd: app });
    expect(result).toEqual({ code: 0, stderr: '', stdout: '0.0.0\n' });
  });

  it('`cwdkit help` prints the usage on stdout', async () => {
    const result = await run(cli(app), ['help'], { cwd: app });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('Usage: cwdkit <command> [options]');
    expect((await run(cli(app), ['--help'], { cwd: app })).stdout).toBe(result.stdout);
  });

  const asNobody = ['--reuid=nobody', '--regid=nogroup', '--clear-groups'];
  const canSwitchUser = process.getuid?.() === 0 && fs.existsSync('/usr/bin/setpriv');
  it.skipIf(!canSwitchUser)(
    'a config file the user may not read: ERR_CWDKIT_CONFIG_FILE naming it (as nobody)',
    async () => {
      const config = writeFile(path.join(app, '.cwdkitrc.json'), { strategy: 'naive' });
      fs.chmodSync(config, 0o000);
      try {
        const code = `import('cwdkit').then((m) => m.createCwdProvider()).catch((e) => console.log(e.code, e.message))`;
        const result = await run('setpriv', [...asNobody, node, '-e', code], { cwd: app });
        expect(result.stderr).toBe('');
        expect(result.stdout).toContain(`ERR_CWDKIT_CONFIG_FILE cwdkit config file ${config} cannot be read (EACCES`);
      } finally {
        fs.rmSync(config);
      }
    },
  );
});
