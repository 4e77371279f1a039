// The flag selects once for the process, from what it read at start: the deferred load (the first chdir, or
// installed()) and every Node worker select from the start directory and the configuration checked there, never from
// where the process has moved since or from a file edited since. A failure reaches a worker's app as an 'error' event;
// a process the runtime would run (a deleted cwd) runs. Real runtimes, real workers, real files.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyPackage, packageRoot, run, scratchDir, writeFile } from './helpers.js';

const modules = path.join(packageRoot, '../../node_modules');
const nodes = [
  ['node24', path.join(modules, 'node24/bin/node')],
  ['node22', path.join(modules, 'node22/bin/node')],
] as const;
const bun = path.join(modules, '.bin/bun');
const deno = path.join(modules, '.bin/deno');
/** How each runtime runs `app` under the flag (Deno through the file, as a file: or tarball install names it). */
const runtimes = [
  ...nodes.map(([name, node]) => [name, node, (app: string) => ['--import', 'cwdkit/register', app]] as const),
  ['bun', bun, (app: string) => ['--preload', 'cwdkit/register', app]] as const,
  ['deno', deno, (app: string) => ['run', '-A', '--preload', './node_modules/cwdkit/dist/register.mjs', app]] as const,
];

/** A fresh project with cwdkit and the real sab-atomics and naive installed. */
function project(config: object | undefined): string {
  const root = scratchDir('cwdkit-register-start-');
  copyPackage(root);
  for (const name of ['sab-atomics', 'naive']) {
    for (const part of ['dist', 'package.json']) {
      fs.cpSync(path.join(packageRoot, '..', name, part), path.join(root, 'node_modules/@cwdkit', name, part), {
        recursive: true,
      });
    }
  }
  writeFile(path.join(root, 'package.json'), {
    name: 'app',
    private: true,
    type: 'module',
    dependencies: { cwdkit: '0.0.0', '@cwdkit/sab-atomics': '0.0.0', '@cwdkit/naive': '0.0.0' },
  });
  if (config !== undefined) writeFile(path.join(root, 'cwdkit.config.json'), config);
  return root;
}

const parse = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1) ?? '');

describe('cwdkit/register selects from the start', () => {
  it.each(runtimes)(
    '%s: the deferred load ignores a config edited since start and a cwd moved without the stub',
    async (_name, command, args) => {
      const root = project({ strategy: 'sab-atomics' });
      // Another project, whose config names another strategy.
      writeFile(path.join(root, 'other/package.json'), { name: 'other' });
      writeFile(path.join(root, 'other/cwdkit.config.json'), { strategy: 'naive' });
      // A chdir the stub does not see on Deno (node:process's own), after the start's config gained a typo.
      writeFile(
        path.join(root, 'app.mjs'),
        `import fs from 'node:fs';
import proc from 'node:process';
fs.writeFileSync('cwdkit.config.json', '{"strategy":"nativ"}');
proc.chdir('other');
const { installed } = await import('cwdkit');
console.log(JSON.stringify({ installed: installed() ?? null, cwd: proc.cwd() }));
`,
      );
      const result = await run(command, args('app.mjs'), { cwd: root });
      expect(result.stderr).toBe('');
      expect(parse(result.stdout)).toEqual({ installed: 'sab-atomics', cwd: path.join(root, 'other') });
    },
  );

  // No config at start: the default list, whatever is written before the first chdir. Not on Bun, whose check cannot
  // tell no file from a dangling symlink (Bun.file): there the load looks again, as it did.
  it.each(runtimes.filter(([name]) => name !== 'bun'))(
    '%s: a config written after a start without one does not change what the first chdir installs',
    async (_name, command, args) => {
      const root = project(undefined);
      writeFile(path.join(root, 'sub/.keep'), '');
      writeFile(
        path.join(root, 'app.mjs'),
        `import fs from 'node:fs';
fs.writeFileSync('cwdkit.config.json', '{"strategy":"nativ"}');
process.chdir('sub');
const { installed } = await import('cwdkit');
console.log(JSON.stringify({ installed: installed() ?? null }));
`,
      );
      const result = await run(command, args('app.mjs'), { cwd: root });
      expect(result.stderr).toBe('');
      expect(parse(result.stdout)).toEqual({ installed: 'sab-atomics' });
    },
  );

  // A worker is a thread of the process: what the main thread's start selected, wherever the main thread is now.
  it.each(
    nodes.flatMap(([name, node]) => [
      [name, 'waiting', node, { strategy: 'naive' }],
      [name, 'eager', node, { strategy: 'naive', options: {} }],
    ]),
  )('%s, %s: a worker started after chdirs selects what the process did', async (_name, _how, node, config) => {
    const root = project(config);
    writeFile(path.join(root, 'packages/x/package.json'), { name: 'x' }); // a project root without config: defaults
    writeFile(path.join(root, 'packages/y/package.json'), { name: 'y' });
    writeFile(path.join(root, 'packages/y/cwdkit.config.json'), '{"strategy":"naive",}');
    writeFile(path.join(root, 'packages/z/package.json'), { name: 'z' });
    writeFile(path.join(root, 'packages/z/cwdkit.config.json'), { strategy: './evil.cjs' });
    writeFile(path.join(root, 'packages/z/evil.cjs'), "console.log('evil ran'); module.exports = {};");
    writeFile(
      path.join(root, 'app.mjs'),
      `import { isMainThread, parentPort, Worker } from 'node:worker_threads';
const { installed } = await import('cwdkit');
if (isMainThread) {
  const seen = [];
  for (const dir of ['packages/x', '../y', '../z']) {
    process.chdir(dir);
    const worker = new Worker(new URL(import.meta.url));
    seen.push(await new Promise((resolve) => {
      worker.once('message', resolve);
      worker.once('error', (error) => resolve('error ' + error.code));
      worker.once('exit', (code) => resolve('exit ' + code));
    }));
  }
  console.log(JSON.stringify({ main: installed(), seen }));
} else parentPort.postMessage(installed());
`,
    );
    const result = await run(node, ['--import', 'cwdkit/register', 'app.mjs'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain('evil ran');
    expect(parse(result.stdout)).toEqual({ main: 'naive', seen: ['naive', 'naive', 'naive'] });
  });

  it.each(nodes)(
    "%s: a strategy that fails to load: the worker's 'error' event and the main thread's chdir give its code",
    async (_name, node) => {
      const root = project({ strategy: 'native' });
      writeFile(path.join(root, 'node_modules/@cwdkit/native/package.json'), {
        name: '@cwdkit/native',
        version: '1.0.0',
        main: 'index.cjs',
        cwdkit: { strategy: 'native' },
      });
      writeFile(path.join(root, 'node_modules/@cwdkit/native/index.cjs'), "throw new Error('no addon');");
      writeFile(
        path.join(root, 'app.mjs'),
        `import { isMainThread, parentPort, Worker } from 'node:worker_threads';
if (isMainThread) {
  const worker = new Worker(new URL(import.meta.url));
  const inWorker = await new Promise((resolve) => {
    worker.once('message', () => resolve('ran'));
    worker.once('error', (error) => resolve(error.code));
    worker.once('exit', (code) => resolve('exit ' + code));
  });
  let main;
  try { process.chdir('.'); main = 'chdir ran'; } catch (error) { main = error.code; }
  console.log(JSON.stringify({ main, inWorker }));
} else parentPort.postMessage('ran');
`,
      );
      const result = await run(node, ['--import', 'cwdkit/register', 'app.mjs'], { cwd: root });
      expect(result.stderr).toBe('');
      expect(parse(result.stdout)).toEqual({
        main: 'ERR_CWDKIT_STRATEGY_LOAD_FAILED',
        inWorker: 'ERR_CWDKIT_STRATEGY_LOAD_FAILED',
      });
    },
  );

  // Deno 2.9 refuses to start in a deleted directory by itself. The register by its file: a bare name resolves from
  // the cwd, which is gone.
  it.each([...nodes.map(([name, node]) => [name, node, '--import'] as const), ['bun', bun, '--preload'] as const])(
    '%s: a program started in a deleted directory runs under the flag as it runs without it',
    async (_name, command, flag) => {
      const root = project({ strategy: 'sab-atomics' });
      const app = writeFile(
        path.join(root, 'app.cjs'),
        `let cwd;
try { cwd = process.cwd(); } catch (error) { cwd = error.code; }
console.log(JSON.stringify({ ran: true, cwd }));
`,
      );
      const register = path.join(root, 'node_modules/cwdkit/dist/register.mjs');
      // Each starts in its own directory, removed by the shell before the runtime starts.
      const inDeleted = (name: string, ...args: string[]) => {
        fs.mkdirSync(path.join(root, name));
        return run('sh', ['-c', 'cd "$0" && rmdir "$0" && exec "$@"', path.join(root, name), command, ...args], {
          cwd: root,
        });
      };
      const [plain, flagged] = await Promise.all([
        inDeleted('gone', app),
        inDeleted('gone-too', flag, command === bun ? register : `file://${register}`, app),
      ]);
      expect(plain).toMatchObject({ code: 0, stderr: '' });
      expect(flagged.stderr).toBe('');
      expect(parse(flagged.stdout)).toEqual(parse(plain.stdout));
    },
  );
});

// On Deno, native's addon needs --allow-ffi, which the start can ask Deno about without loading anything: without it
// native is not counted as installed, so a configuration that needs it stops at start with the selection's one line,
// and one that lists another strategy after it (the default list) waits for that one, as the load then picks it.
describe('Deno: native without the ffi permission', () => {
  /** A project with the real @cwdkit/native (its built addon and node-gyp-build) besides sab-atomics and naive. */
  function withNative(config: object | undefined): string {
    const root = project(config);
    const native = path.join(packageRoot, '../native');
    for (const part of ['dist', 'package.json', 'build/Release/cwdkit.node']) {
      fs.cpSync(path.join(native, part), path.join(root, 'node_modules/@cwdkit/native', part), { recursive: true });
    }
    fs.cpSync(path.join(modules, 'node-gyp-build'), path.join(root, 'node_modules/node-gyp-build'), {
      recursive: true,
    });
    writeFile(path.join(root, 'sub/.keep'), '');
    writeFile(
      path.join(root, 'app.mjs'),
      `const pending = typeof (globalThis.Deno ? globalThis : Object.getPrototypeOf(process))[Symbol.for('cwdkit.register.pending')] === 'function';
console.log('app started');
process.chdir('sub');
const { installed } = await import('cwdkit');
console.log(JSON.stringify({ pending, installed: installed() ?? null }));
`,
    );
    return root;
  }
  const flagged = (permissions: string[]) => [
    'run',
    ...permissions,
    '--preload',
    './node_modules/cwdkit/dist/register.mjs',
    'app.mjs',
  ];
  const readEnv = ['--allow-read', '--allow-env'];

  it('{"strategy":"native"}: one line with the code at start, exit code 1, before the app runs', async () => {
    const root = withNative({ strategy: 'native' });
    const result = await run(deno, flagged(readEnv), { cwd: root, env: { NO_COLOR: '1' } });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(
      /^cwdkit\/register: The cwdkit strategy "native" failed to load: .*--allow-ffi.* \[ERR_CWDKIT_STRATEGY_LOAD_FAILED\]\n$/,
    );
  });

  it('the default list: the process waits, and its first chdir installs the next strategy', async () => {
    const root = withNative(undefined);
    const result = await run(deno, flagged(readEnv), { cwd: root });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(parse(result.stdout)).toEqual({ pending: true, installed: 'sab-atomics' });
  });

  // Workspaces and npm link lay the package out as a symlink: Deno checks the addon's real path, so a grant of the
  // link's folder alone is none, and the start must say so, not the first chdir.
  it('--allow-ffi for a symlinked package folder only: one line at start, as without it', async () => {
    const root = withNative({ strategy: 'native' });
    const linked = path.join(root, 'node_modules/@cwdkit/native');
    const real = path.join(root, 'real-native');
    fs.renameSync(linked, real);
    fs.symlinkSync(real, linked);
    const result = await run(deno, flagged([...readEnv, `--allow-ffi=${linked}`]), {
      cwd: root,
      env: { NO_COLOR: '1' },
    });
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^cwdkit\/register: .* \[ERR_CWDKIT_STRATEGY_LOAD_FAILED\]\n$/);
    const granted = await run(deno, flagged([...readEnv, `--allow-ffi=${real}`]), { cwd: root });
    expect(granted).toMatchObject({ code: 0, stderr: '' });
    expect(parse(granted.stdout)).toEqual({ pending: true, installed: 'native' });
  });

  it('with --allow-ffi, native waits for the first chdir, as before', async () => {
    const root = withNative({ strategy: 'native' });
    const result = await run(deno, flagged([...readEnv, '--allow-ffi']), { cwd: root });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(parse(result.stdout)).toEqual({ pending: true, installed: 'native' });
  });
});
