// What is specific to thread-cwd, each in a real worker of a real child process: the cover's life cycle, a deleted
// and a moved directory, a worker started by a chdir'd worker, EACCES, the refusal on Bun and Deno; the setup entry.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import threadCwd, { createProvider } from '@cwdkit/thread-cwd';
import { afterAll, describe, expect, it } from 'vitest';
import { noUnshare } from '../../native/test/no-unshare.js';

const script = path.join(import.meta.dirname, 'fixtures', 'scenario.mjs');
const register = fs.realpathSync(path.join(import.meta.dirname, '..', '..', 'cwdkit', 'dist', 'register.cjs'));
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-test-')));
fs.chmodSync(scratch, 0o755); // nobody must be able to enter it (the EACCES test)
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const node = findRuntime('node24');
/** Whether kernel mode runs here (the addon loads and unshare(CLONE_FS) is allowed); else handles mode. */
const kernelHere =
  process.env.CWDKIT_THREAD_CWD_KERNEL !== '0' &&
  ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());
let dirs = 0;
/** A worker with no code of its own: where it is, what its relative x.txt holds; with a grandchild if asked. */
const reportWorker = `const fs = require('node:fs');
const { parentPort, Worker, workerData } = require('node:worker_threads');
const { installed } = require(${JSON.stringify(fs.realpathSync(path.join(import.meta.dirname, '..', '..', 'cwdkit', 'dist', 'index.cjs')))});
let read;
try { read = fs.readFileSync('x.txt', 'utf8'); } catch (error) { read = error.code; }
const report = { cwd: process.cwd(), read, installed: installed() ?? null, preloads: process.execArgv.filter((arg) => arg.includes('thread-cwd')).length };
if (workerData?.grandchild) {
  const grandchild = new Worker('./' + require('node:path').basename(__filename));
  grandchild.on('message', (inner) => parentPort.postMessage({ ...report, grandchild: inner }));
} else parentPort.postMessage(report);
`;

interface ScenarioOptions {
  binary?: string[];
  env?: Record<string, string>;
  /** A command line to run it under (another user). */
  as?: string[];
  prepare?(dir: string): void;
}

function scenario(name: string, options: ScenarioOptions = {}) {
  const dir = path.join(scratch, `${name}-${dirs++}`);
  fs.mkdirSync(dir);
  fs.chmodSync(dir, 0o755);
  options.prepare?.(dir);
  const [command, ...args] = [...(options.as ?? []), ...(options.binary ?? [node as string]), script, name, dir];
  const output = execFileSync(command as string, args, {
    encoding: 'utf8',
    cwd: scratch,
    env: { ...process.env, ...options.env },
  });
  return { dir, report: JSON.parse(output) };
}

describe('thread-cwd', () => {
  it('declares a thread scope on Node on Linux', () => {
    expect(threadCwd.name).toBe('thread-cwd');
    expect(createProvider().capabilities).toEqual(
      process.platform === 'linux'
        ? {
            workerCoherent: true,
            chdirFromWorker: true,
            externalChange: 'never',
            chdirScope: 'thread',
            threadCwd: kernelHere ? 'kernel' : 'handles',
          }
        : { workerCoherent: true, chdirFromWorker: false, externalChange: 'never', chdirScope: 'process' },
    );
  });
});

describe.skipIf(!node || process.platform !== 'linux')('thread-cwd in a Node 24 worker', () => {
  it('covers fs at install (a function taken before the first chdir follows), ESM named imports too; uninstall restores every original', () => {
    const { report } = scenario('cover');
    expect(report.count).toBeGreaterThan(50);
    // Handles mode: no fs function is the original once installed. Kernel mode: the sync ones that run on the
    // worker's thread alone are left as they are (the kernel resolves them against its cwd).
    const onThread = kernelHere ? report.installed.filter((name: string) => name.endsWith('Sync')) : [];
    if (kernelHere) expect(onThread).toEqual(expect.arrayContaining(['readFileSync', 'statSync', 'writeFileSync']));
    // Still covered in kernel mode: a Dir and a disposable are walked later, by path, from the pool.
    expect(onThread).not.toContain('opendirSync');
    expect(onThread).not.toContain('mkdtempDisposableSync');
    expect(report).toEqual({
      count: report.count,
      installed: onThread,
      captured: 'in the thread cwd',
      esmFollows: true,
      // Kernel mode: a thread whose fs_struct became its own keeps its covers (it stays in a directory of its own:
      // kernel.test.ts); one that never chdir'd gets every original back (below).
      restored: kernelHere ? onThread.length : report.count,
      esmRestored: !kernelHere,
    });
    const unmoved = scenario('coverUnmoved').report;
    expect(unmoved).toEqual({ ...report, captured: 'ENOENT', restored: report.count, esmRestored: true });
  });

  it('a directory whose name is not UTF-8: cwd() throws EILSEQ (never a U+FFFD path), relative fs and children work', () => {
    const { report } = scenario('notUtf8');
    expect(report).toEqual({
      cwd: { code: 'EILSEQ', message: expect.any(String) },
      read: 'in bad',
      child: true,
      childRelative: true,
    });
  });

  it("core's OS read and a strategy's miss: the process cwd in a chdir'd thread in handles mode, the thread's in kernel mode", () => {
    // Kernel mode: the OS itself answers the thread's own directory to every read on that thread.
    if (kernelHere) {
      const { dir, report } = scenario('osRead');
      expect(report).toEqual({ thread: dir, os: dir, sab: dir });
    }
    const { dir, report } = scenario('osRead', { as: [noUnshare()] }); // handles mode: unshare(2) refused
    expect(report).toEqual({ thread: dir, os: scratch, sab: scratch });
  });

  it('close() of one provider that is not installed leaves the cwd of another open one', () => {
    const { dir, report } = scenario('closeOther');
    expect(report).toEqual({ kept: dir });
  });

  it('a deleted directory: process.cwd() throws uv_cwd ENOENT, mkdir fails ENOENT, a new one there is not it', () => {
    const { dir, report } = scenario('deleted');
    expect(report).toEqual({
      first: { code: 'ENOENT', syscall: 'uv_cwd' }, // Node's process.cwd() asks getcwd at its first call after chdir
      cwd: { code: 'ENOENT', syscall: 'uv_cwd' },
      mkdir: { code: 'ENOENT', syscall: 'mkdir' },
      recursive: { code: 'ENOENT', syscall: 'mkdir' },
      recreated: { ok: [] }, // the kernel still lists the deleted directory (empty), not the new one at its path
      back: dir,
    });
  });

  it('a directory moved while a worker is in it: the worker stays in it, and process.cwd() follows', () => {
    const { dir, report } = scenario('moved');
    expect(report).toEqual({ read: 'inside', cwd: path.join(dir, 'to') });
  });

  it("with --import cwdkit/register, a worker that a chdir'd worker starts (by a relative path) starts in its cwd, installed", () => {
    const { dir, report } = scenario('nested', {
      binary: [node as string, '--import', register],
      env: { CWDKIT_STRATEGY: 'thread-cwd' },
    });
    expect(report).toEqual({ cwd: dir, installed: 'thread-cwd', read: 'the parent worker cwd' });
  });

  it("installed by the setup entry alone, a chdir'd worker's workers (a file, eval, execArgv: []; a grandchild) start in its cwd, installed, as a real chdir'd process's", () => {
    const prepare = (dir: string) => {
      fs.mkdirSync(path.join(dir, 'sub'));
      fs.writeFileSync(path.join(dir, 'x.txt'), 'the process cwd');
      fs.writeFileSync(path.join(dir, 'sub', 'x.txt'), 'sub');
      fs.writeFileSync(path.join(dir, 'sub', 'report.cjs'), reportWorker);
    };
    const { dir, report } = scenario('startedThread', { prepare });
    // The control: the same workers, started by a process that really is in sub (its main thread; no thread-cwd).
    const real = JSON.parse(
      execFileSync(node as string, [script, 'startedReal'], { cwd: path.join(dir, 'sub'), encoding: 'utf8' }),
    );
    const installed = (value: { installed: unknown; preloads: unknown; grandchild?: object }): object => ({
      ...value,
      installed: 'thread-cwd',
      // process.execArgv says what the caller gave (nothing), as in the real process: the setup entry the parent added
      // is taken out at load (a child process forked from the worker inherits process.execArgv).
      preloads: 0,
      ...(value.grandchild ? { grandchild: installed(value.grandchild as never) } : {}),
    });
    expect(real.file).toEqual({
      cwd: path.join(dir, 'sub'),
      read: 'sub',
      installed: null,
      preloads: 0,
      grandchild: { cwd: path.join(dir, 'sub'), read: 'sub', installed: null, preloads: 0 },
    });
    expect(report).toEqual({
      file: installed(real.file),
      bare: installed(real.bare),
      evaluated: installed(real.evaluated),
    });
  });

  it("close() of a provider that took its parent worker's cwd but was never installed closes that handle", () => {
    const { dir, report } = scenario('closedUnused');
    expect(report).toEqual({ taken: 1, cwd: dir, kept: 0 });
  });

  it('a deep relative chdir past PATH_MAX works as a real one: cwd() throws ERANGE, relative paths and children work', () => {
    const prepare = (at: string) => ['real', 'work'].map((name) => fs.mkdirSync(path.join(at, name)));
    let dir = '';
    let report: unknown;
    let real: { seen: object[]; worker: { code: string } };
    try {
      ({ dir, report } = scenario('deep', { prepare })); // in dir/work: as long as dir/real
      real = JSON.parse(
        execFileSync(node as string, [script, 'deepReal', path.join(dir, 'real')], { cwd: scratch, encoding: 'utf8' }),
      );
    } finally {
      // fs.rmSync cannot remove a tree deeper than PATH_MAX; rm(1) walks it relative to each directory.
      execFileSync('rm', ['-rf', ...fs.readdirSync(scratch).filter((name) => name.startsWith('deep-'))], {
        cwd: scratch,
      });
    }
    // The real side: past 4,096 bytes getcwd(3) gives up, the kernel does not.
    expect(real.seen[19]).toMatchObject({ depth: 20, cwd: { code: 'ERANGE' }, read: '20', child: { ok: '20' } });
    expect(real.worker.code).toBe('ERANGE'); // new Worker('./f') resolves with process.cwd()
    expect(report).toEqual(real);
  });

  it("uninstall() and close() drop the thread's cwd and its handle: a new provider, and a worker started then, follow the process cwd", () => {
    const { report } = scenario('uninstalled', {
      prepare: (dir) => {
        fs.mkdirSync(path.join(dir, 'sub'));
        fs.writeFileSync(path.join(dir, 'sub', 'report.cjs'), reportWorker);
      },
    });
    expect(report).toEqual({
      // The O_PATH handle on sub is closed; in kernel mode one on the process cwd of that moment is taken, where the
      // thread stays (kernel.test.ts).
      after: { cwd: scratch, handles: kernelHere ? 0 : 1 },
      worker: { cwd: scratch, read: 'ENOENT', installed: 'thread-cwd', preloads: 0 }, // it installs thread-cwd itself
      reinstalled: scratch,
    });
  });

  it.skipIf(process.getuid?.() !== 0)(
    'EACCES worded as the real chdir words it (as nobody, no search permission)',
    () => {
      const as = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
      const { dir, report } = scenario('eacces', { as, prepare: (at) => fs.mkdirSync(path.join(at, 'locked'), 0o600) });
      const real = execFileSync(
        as[0] as string,
        [...as.slice(1), node as string, '-e', "try { process.chdir('locked') } catch (e) { console.log(e.message) }"],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(real.trim()).toBe(`EACCES: permission denied, chdir '${dir}' -> 'locked'`);
      expect(report).toEqual({ code: 'EACCES', message: real.trim() });
    },
  );
});

describe('install() in a worker refuses on Bun without kernel mode, and on Deno without --allow-ffi, changing nothing', () => {
  for (const [name, binary, env] of [
    // Bun has kernel mode only: turned off, or refused by a seccomp filter (test/bun.test.ts has the rest).
    ['bun with CWDKIT_THREAD_CWD_KERNEL=0', [findRuntime('bun')], { CWDKIT_THREAD_CWD_KERNEL: '0' }],
    ['bun under a seccomp filter that refuses unshare(2)', [noUnshare(), findRuntime('bun')]],
    // With --allow-ffi (-A) a Deno worker gets a cwd of its own in the kernel (test/deno.test.ts).
    [
      'deno',
      [findRuntime('deno'), 'run', '--allow-read', '--allow-write', '--allow-env', '--allow-sys', '--allow-run'],
    ],
  ] as const) {
    it.skipIf(!binary.at(-1))(name, () => {
      const { report } = scenario('refuses', { binary: binary as unknown as string[], env });
      expect(report).toMatchObject({ code: 'ERR_CWDKIT_UNSUPPORTED_RUNTIME', restored: true });
      expect(report.message).toMatch(/cannot give this worker a cwd of its own/);
      if (name === 'deno') expect(report.message).toContain('--allow-ffi');
      if (env) expect(report.message).toContain('CWDKIT_THREAD_CWD_KERNEL=0');
      else if (name.startsWith('bun')) expect(report.message).toContain('unshare(CLONE_FS) was refused (EPERM)');
    });
  }
});

describe.skipIf(!node || process.platform !== 'linux')('@cwdkit/thread-cwd/setup in a Node 24 worker', () => {
  const mainThread = { installed: null, cwd: scratch }; // the process never moves

  it('installs thread-cwd in this worker: chdir moves this thread only', () => {
    const { dir, report } = scenario('setupOnce');
    expect(report).toEqual({ installed: 'thread-cwd', cwd: dir, read: 'in the thread cwd', main: mainThread });
  });

  it('loaded again (its CommonJS copy, the ESM entry evaluated anew) it does nothing', () => {
    const { report } = scenario('setupTwice');
    expect(report).toEqual({
      again: [{ ok: 'loaded' }, { ok: 'loaded' }],
      unchanged: true,
      installed: 'thread-cwd',
      read: 'in the thread cwd',
      main: mainThread,
    });
  });

  it('after another strategy: ERR_CWDKIT_ALREADY_INSTALLED naming it, and nothing changed', () => {
    const { dir, report } = scenario('setupAfterOther');
    expect(report).toMatchObject({
      code: 'ERR_CWDKIT_ALREADY_INSTALLED',
      installed: 'sab-atomics',
      unchanged: true, // the same functions, and no handle on the parent worker's cwd (dir) taken
      // A worker that does not run thread-cwd starts in the process cwd, in kernel mode too (kernel.test.ts).
      cwd: scratch,
      chdir: 'ERR_WORKER_UNSUPPORTED_OPERATION', // sab-atomics keeps a worker's chdir refused
      main: mainThread,
    });
    expect(report.message).toMatch(/^@cwdkit\/thread-cwd\/setup: sab-atomics is already installed in this thread/);
    expect(dir).not.toBe(scratch);
  });

  it("compiled in a vm context (a test runner's own module loader, vitest's vm pools in vitest-pools.test.ts): ERR_CWDKIT_UNSUPPORTED_RUNTIME, and nothing changed", () => {
    const { report } = scenario('setupInVmContext');
    expect(report).toEqual({
      code: 'ERR_CWDKIT_UNSUPPORTED_RUNTIME',
      message: expect.stringMatching(
        /^install\(\): thread-cwd cannot run here: code in a vm context .* use vitest's pool 'threads' \(or 'forks'\)$/,
      ),
      inContext: 2, // setup.cjs and its chunk, compiled in the context (the fixture's own check)
      installed: null,
      unchanged: true,
      chdir: 'ERR_WORKER_UNSUPPORTED_OPERATION',
      main: mainThread,
    });
  });

  it('node --import @cwdkit/thread-cwd/setup (or NODE_OPTIONS): every worker and the workers they start, installed', () => {
    const flag = ['--import', path.join(import.meta.dirname, '..', 'dist', 'setup.js')];
    const expected = () => ({
      installed: 'thread-cwd',
      cwd: dir,
      nested: { installed: 'thread-cwd', cwd: dir, read: 'the parent worker cwd' }, // started in its parent's cwd
      bare: { installed: 'thread-cwd', cwd: dir, read: 'the parent worker cwd' }, // execArgv: [] (given the setup)
      main: { installed: 'thread-cwd', cwd: scratch },
    });
    let { dir, report } = scenario('setupImported', { binary: [node as string, ...flag] });
    expect(report).toEqual(expected());
    ({ dir, report } = scenario('setupImported', { env: { NODE_OPTIONS: flag.join(' ') } }));
    expect(report).toEqual(expected());
    // The control: without the flag the same worker cannot chdir.
    expect(scenario('setupImported').report).toEqual({
      installed: null,
      chdir: 'ERR_WORKER_UNSUPPORTED_OPERATION',
      main: mainThread,
    });
  });
});

describe('@cwdkit/thread-cwd/setup in a worker refuses on Bun without kernel mode, and on Deno without --allow-ffi, as install() does, changing nothing', () => {
  for (const [name, binary, env] of [
    // Bun has kernel mode only: turned off, or refused by a seccomp filter (test/bun.test.ts has the rest).
    ['bun with CWDKIT_THREAD_CWD_KERNEL=0', [findRuntime('bun')], { CWDKIT_THREAD_CWD_KERNEL: '0' }],
    ['bun under a seccomp filter that refuses unshare(2)', [noUnshare(), findRuntime('bun')]],
    // With --allow-ffi (-A) a Deno worker gets a cwd of its own in the kernel (test/deno.test.ts).
    [
      'deno',
      [findRuntime('deno'), 'run', '--allow-read', '--allow-write', '--allow-env', '--allow-sys', '--allow-run'],
    ],
  ] as const) {
    it.skipIf(!binary.at(-1))(name, () => {
      const { report } = scenario('setupRefuses', { binary: binary as unknown as string[], env });
      expect(report).toMatchObject({ code: 'ERR_CWDKIT_UNSUPPORTED_RUNTIME', installed: null, unchanged: true });
      expect(report.message).toMatch(/cannot give this worker a cwd of its own/);
      if (name === 'deno') expect(report.message).toContain('--allow-ffi');
      if (env) expect(report.message).toContain('CWDKIT_THREAD_CWD_KERNEL=0');
      else if (name.startsWith('bun')) expect(report.message).toContain('unshare(CLONE_FS) was refused (EPERM)');
    });
  }
});
