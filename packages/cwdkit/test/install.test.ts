import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { Worker } from 'node:worker_threads';
import { buildProvider, installHook, osChdir, readOsCwd } from '@cwdkit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CwdProvider, createCwdProvider, install, installed } from '../src/index.js';
import { dist, fixtures, packageRoot, run, scratchDir } from './helpers.js';

const bin = path.join(packageRoot, '../../node_modules/.bin');

let start: string;
let scratch: string;
const pristine = { cwd: process.cwd, chdir: process.chdir };
const pristineResolve = path.resolve;
beforeEach(() => {
  start = process.cwd();
  scratch = scratchDir('cwdkit-install-');
});
afterEach(() => {
  // A failed test must not leave the next one with our functions installed.
  Object.assign(process, pristine);
  path.resolve = pristineResolve;
  process.chdir(start);
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A real provider on real OS calls (core's helpers), counting what goes through it. */
function counting(strategy = 'counting', externalChange: 'immediate' | 'never' = 'immediate') {
  const calls = { cwd: 0, chdir: 0 };
  const provider = buildProvider({
    strategy,
    capabilities: { workerCoherent: true, chdirFromWorker: false, externalChange },
    cwd() {
      calls.cwd++;
      return readOsCwd();
    },
    chdir(directory) {
      calls.chdir++;
      osChdir(directory);
    },
    invalidate() {},
  });
  return { provider, calls };
}

describe('install()', () => {
  it('routes process.cwd(), process.chdir() and path.resolve() through the provider', () => {
    const { provider, calls } = counting();
    const uninstall = install(provider);
    try {
      process.chdir(scratch);
      expect(calls.chdir).toBe(1);
      expect(readOsCwd()).toBe(scratch);
      calls.cwd = 0;
      expect(process.cwd()).toBe(scratch);
      expect(path.resolve('src', 'index.ts')).toBe(path.join(scratch, 'src', 'index.ts'));
      expect(calls.cwd).toBe(2);
    } finally {
      uninstall();
    }
  });

  it('a failed process.chdir keeps Node error shape and the cwd', () => {
    const uninstall = install(counting().provider);
    try {
      process.chdir(scratch);
      const missing = path.join(scratch, 'missing');
      expect(() => process.chdir(missing)).toThrow(
        expect.objectContaining({ code: 'ENOENT', syscall: 'chdir', path: scratch, dest: missing }),
      );
      // Not a string: the runtime's own error, worded as the runtime words it (class, code, message, stack tag).
      const wordings = (chdir: (directory: string) => void) =>
        [42, undefined, 1n, -0, () => {}, class Named {}, Object.create(null), new URL(`file://${scratch}`)].map(
          (wrong) => {
            try {
              chdir.call(process, wrong as unknown as string);
              return 'no error';
            } catch (error) {
              return `${(error as Error).constructor.name} ${(error as { code?: string }).code} ${String(error)}`;
            }
          },
        );
      expect(wordings(process.chdir)).toEqual(wordings(pristine.chdir));
      expect(wordings(process.chdir).every((line) => line.includes('ERR_INVALID_ARG_TYPE'))).toBe(true);
      expect(readOsCwd()).toBe(scratch);
      expect(process.cwd()).toBe(scratch);
    } finally {
      uninstall();
    }
  });

  it('uninstall() restores the exact original functions and property descriptors', () => {
    const descriptors = {
      cwd: Object.getOwnPropertyDescriptor(process, 'cwd'),
      chdir: Object.getOwnPropertyDescriptor(process, 'chdir'),
      resolve: Object.getOwnPropertyDescriptor(path, 'resolve'),
    };
    const { provider, calls } = counting();
    const uninstall = install(provider);
    expect(process.cwd).not.toBe(pristine.cwd);
    expect(process.chdir).not.toBe(pristine.chdir);
    expect(path.resolve).not.toBe(pristineResolve);
    const replacement = process.cwd;
    uninstall();
    expect(process.cwd).toBe(pristine.cwd);
    expect(process.chdir).toBe(pristine.chdir);
    expect(path.resolve).toBe(pristineResolve);
    expect(Object.getOwnPropertyDescriptor(process, 'cwd')).toEqual(descriptors.cwd);
    expect(Object.getOwnPropertyDescriptor(process, 'chdir')).toEqual(descriptors.chdir);
    expect(Object.getOwnPropertyDescriptor(path, 'resolve')).toEqual(descriptors.resolve);
    // A copy someone took while we were installed falls back to the original instead of the provider.
    calls.cwd = 0;
    expect(replacement()).toBe(pristine.cwd.call(process));
    expect(calls.cwd).toBe(0);
    uninstall(); // a second call does nothing
    expect(process.cwd).toBe(pristine.cwd);
  });

  it('a second install of another strategy throws, names both, and changes nothing; after uninstall it works', () => {
    const first = counting().provider;
    const uninstall = install(first);
    const swapped = { cwd: process.cwd, chdir: process.chdir, resolve: path.resolve };
    expect(() => install(counting('spare').provider)).toThrow(
      expect.objectContaining({
        code: 'ERR_CWDKIT_ALREADY_INSTALLED',
        message: expect.stringMatching(
          /A counting CwdProvider is already installed.*given a spare one.*remove the flag/,
        ),
      }),
    );
    expect({ cwd: process.cwd, chdir: process.chdir, resolve: path.resolve }).toEqual(swapped);
    uninstall();
    install(counting('spare').provider)();
    expect(process.cwd).toBe(pristine.cwd);
  });

  it('the same strategy with the same capabilities again (the flag, then the app) is a no-op, not an error', () => {
    const { provider, calls } = counting();
    const uninstall = install(provider);
    const swapped = { cwd: process.cwd, chdir: process.chdir, resolve: path.resolve };
    const again = counting();
    const uninstallAgain = install(again.provider);
    expect({ cwd: process.cwd, chdir: process.chdir, resolve: path.resolve }).toEqual(swapped);
    calls.cwd = 0;
    process.cwd();
    expect([calls.cwd, again.calls.cwd]).toEqual([1, 0]); // the first install still answers
    uninstallAgain();
    uninstallAgain();
    expect(process.cwd).toBe(swapped.cwd); // the no-op uninstall leaves the first install in place
    expect(installed()).toBe('counting');
    uninstall();
    expect(process.cwd).toBe(pristine.cwd);
    expect(path.resolve).toBe(pristineResolve);
  });

  it('two hand-made providers with no strategy name are two strategies: the second throws, the first again is a no-op', () => {
    // As a hand-made strategy might: buildProvider with no `strategy` (the type asks for one).
    const unnamed = () =>
      buildProvider({
        capabilities: { workerCoherent: true, chdirFromWorker: false, externalChange: 'immediate' },
        cwd: readOsCwd,
        chdir: osChdir,
        invalidate() {},
      } as unknown as Parameters<typeof buildProvider>[0]);
    const first = unnamed();
    const uninstall = install(first);
    try {
      const swapped = { cwd: process.cwd, chdir: process.chdir, resolve: path.resolve };
      expect(() => install(unnamed())).toThrow(
        expect.objectContaining({
          code: 'ERR_CWDKIT_ALREADY_INSTALLED',
          message: expect.stringMatching(/^An unnamed CwdProvider is already installed.*given an unnamed one/),
        }),
      );
      expect({ cwd: process.cwd, chdir: process.chdir, resolve: path.resolve }).toEqual(swapped);
      install(first)(); // the very same provider: a no-op, and its uninstall too
      expect(process.cwd).toBe(swapped.cwd);
      expect(installed()).toBe('unnamed');
    } finally {
      uninstall();
    }
    expect(process.cwd).toBe(pristine.cwd);
  });

  it('the same strategy with other capabilities throws and names the difference', () => {
    const uninstall = install(counting().provider);
    try {
      expect(() => install(counting('counting', 'never').provider)).toThrow(
        expect.objectContaining({
          code: 'ERR_CWDKIT_ALREADY_INSTALLED',
          message: expect.stringContaining(
            'another counting one with other capabilities (externalChange "immediate" there, "never" here)',
          ),
        }),
      );
    } finally {
      uninstall();
    }
  });

  it('installed() names the installed strategy, and undefined before and after', () => {
    expect(installed()).toBeUndefined();
    const uninstall = install(counting().provider);
    expect(installed()).toBe('counting');
    uninstall();
    expect(installed()).toBeUndefined();
  });

  it('a closed provider is refused and nothing changes (every process.cwd() would throw)', () => {
    const { provider } = counting();
    provider.close();
    expect(() => install(provider)).toThrow(expect.objectContaining({ code: 'ERR_CWDKIT_CLOSED' }));
    expect(process.cwd).toBe(pristine.cwd);
    expect(process.chdir).toBe(pristine.chdir);
    expect(installed()).toBeUndefined();
  });

  it('the ESM and the CommonJS build of cwdkit share one install state', () => {
    const cjs = createRequire(import.meta.url)(path.join(dist, 'index.cjs')) as { install: typeof install };
    const uninstall = install(counting().provider);
    try {
      expect(() => cjs.install(counting('spare').provider)).toThrow(
        expect.objectContaining({ code: 'ERR_CWDKIT_ALREADY_INSTALLED' }),
      );
    } finally {
      uninstall();
    }
    cjs.install(counting().provider)();
  });

  it.each([[undefined], [null], [42], [{ cwd: () => '/' }]])('refuses %j with ERR_INVALID_ARG_TYPE', (value) => {
    expect(() => install(value as unknown as CwdProvider)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
    expect(process.cwd).toBe(pristine.cwd);
  });

  it('after the provider is closed, process.cwd() says so instead of answering from a closed provider', () => {
    const { provider } = counting();
    const uninstall = install(provider);
    provider.close();
    expect(() => process.cwd()).toThrow(expect.objectContaining({ code: 'ERR_CWDKIT_CLOSED' }));
    uninstall();
    expect(process.cwd()).toBe(start);
  });
});

describe("a strategy's own install step (installHook)", () => {
  function hooked(hook: () => () => void) {
    return buildProvider({
      strategy: 'hooked',
      capabilities: { workerCoherent: true, chdirFromWorker: false, externalChange: 'immediate' },
      cwd: readOsCwd,
      chdir: osChdir,
      invalidate() {},
      install: hook,
    });
  }

  it('runs after process.cwd is swapped, and its undo runs on uninstall() before the originals return', () => {
    const log: string[] = [];
    const provider = hooked(() => {
      log.push(`install: cwd swapped ${process.cwd !== pristine.cwd}`);
      return () => log.push(`undo: cwd still swapped ${process.cwd !== pristine.cwd}`);
    });
    expect(typeof provider[installHook]).toBe('function');
    const uninstall = install(provider);
    expect(log).toEqual(['install: cwd swapped true']);
    uninstall();
    uninstall(); // idempotent: the undo runs once
    expect(log).toEqual(['install: cwd swapped true', 'undo: cwd still swapped true']);
    expect(process.cwd).toBe(pristine.cwd);
  });

  it('a failing install step leaves everything as it was', () => {
    const provider = hooked(() => {
      throw Object.assign(new Error('cannot patch'), { code: 'ERR_TEST' });
    });
    expect(() => install(provider)).toThrow(expect.objectContaining({ code: 'ERR_TEST' }));
    expect(process.cwd).toBe(pristine.cwd);
    expect(process.chdir).toBe(pristine.chdir);
    expect(installed()).toBeUndefined();
  });
});

describe('trap 7: an installed provider never calls itself', () => {
  const realStrategies = ['naive', 'main-thread-cache', 'sab-atomics', 'mutex', 'native'].filter((name) => {
    try {
      createRequire(path.join(packageRoot, 'package.json')).resolve(`@cwdkit/${name}`);
      return true;
    } catch {
      return false;
    }
  });

  it.skipIf(realStrategies.length === 0).each(realStrategies)('the real @cwdkit/%s, installed', async (name) => {
    const provider = await createCwdProvider({ strategy: name });
    const uninstall = install(provider);
    try {
      expect(process.cwd()).toBe(readOsCwd());
      process.chdir(scratch);
      expect(readOsCwd()).toBe(scratch);
      expect(process.cwd()).toBe(scratch);
      expect(provider.cwd()).toBe(scratch);
      expect(path.resolve('a')).toBe(path.join(scratch, 'a'));
      expect(() => process.chdir(path.join(scratch, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
      expect(process.cwd()).toBe(scratch);
    } finally {
      uninstall();
      provider.close();
    }
  });

  it('control: a provider that calls process.cwd() itself recurses once installed (what the test above rules out)', () => {
    const careless = buildProvider({
      strategy: 'careless',
      capabilities: { workerCoherent: false, chdirFromWorker: false, externalChange: 'immediate' },
      cwd: () => process.cwd(),
      chdir: osChdir,
      invalidate() {},
    });
    const uninstall = install(careless);
    let error: unknown;
    try {
      process.cwd();
    } catch (caught) {
      error = caught;
    } finally {
      uninstall();
    }
    expect(error).toBeInstanceOf(RangeError);
  });
});

describe('install() in other places', () => {
  it('in a real worker thread, the runtime refusal of chdir stays, with .disabled', async () => {
    const report = await new Promise((resolve, reject) => {
      const worker = new Worker(path.join(fixtures, 'worker-install.mjs'));
      worker.once('message', resolve).once('error', reject);
    });
    expect(report).toEqual({
      cwdReplaced: true,
      chdirKept: true,
      disabled: true,
      resolve: true,
      resolveReplaced: true,
      cwdCalls: 1,
      refusal: 'ERR_WORKER_UNSUPPORTED_OPERATION',
      restored: true,
    });
  });

  it('in a worker, a thread-scoped provider gets process.chdir (no .disabled) and answers with its own errors', async () => {
    const report = await new Promise((resolve, reject) => {
      const worker = new Worker(path.join(fixtures, 'worker-thread-scope.mjs'), { workerData: scratch });
      worker.once('message', resolve).once('error', reject);
    });
    expect(report).toEqual({
      chdirReplaced: true,
      disabled: undefined,
      cwd: scratch,
      resolve: path.join(scratch, 'src', 'index.ts'),
      resolveReplaced: true,
      osUnmoved: true,
      failure: { code: 'ENOENT', syscall: 'chdir', cwd: scratch },
      restored: true,
      refusedAgain: 'ERR_WORKER_UNSUPPORTED_OPERATION',
    });
  });

  it.each(['graceful-fs', 'install'])('beside the real graceful-fs, %s loaded first', async (order) => {
    const result = await run(process.execPath, [path.join(fixtures, 'graceful-fs.cjs'), order], { cwd: scratch });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      // graceful-fs loaded first: its wrappers are what core captures as the originals (and they still work).
      originalsArePristine: order === 'install',
      gracefulFsWrapsUs: order === 'install',
      cwdAfterChdir: true,
      resolve: true,
      throughProvider: true,
      restored: true,
      cwdAfterUninstall: true,
    });
  });

  const common = {
    processCwdReplaced: true,
    processChdirReplaced: true,
    chdirCalls: 1,
    osCwdAfterChdir: true,
    processCwd: true,
    pathResolve: true,
    failedChdir: { code: 'ENOENT', syscall: 'chdir', unchanged: true },
    failedChdirIsRuntimes: true,
    secondInstall: 'ERR_CWDKIT_ALREADY_INSTALLED',
    sameStrategyAgain: true,
    restored: true,
    callsAfterUninstall: 0,
    // path.resolve is replaced too: on Bun, whose own reads its native cache, that is what makes it read the provider.
    pathResolveCalls: 1,
  };
  it.each([
    ['Node', process.execPath, [], common],
    ['Bun', path.join(bin, 'bun'), [], common],
    // Deno: Deno.cwd/Deno.chdir are replaced too, and Deno.chdir keeps taking URLs.
    [
      'Deno',
      path.join(bin, 'deno'),
      ['run', '-A'],
      {
        ...common,
        denoCwd: true,
        denoChdirUrl: true,
        denoChdirError: true,
        denoChdirErrorIsRuntimes: true,
        denoCwdGone: true,
      },
    ],
  ] as const)('on %s, for real', async (_runtime, command, args, expected) => {
    const result = await run(command, [...args, path.join(fixtures, 'install-scenario.mjs')], { cwd: scratch });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });

  // #20.11: the flag installed the strategy, then the app calls install() itself.
  it.each([
    ['Node --import', process.execPath, ['--import']],
    ['Bun --preload', path.join(bin, 'bun'), ['--preload']],
    ['Deno --preload', path.join(bin, 'deno'), ['run', '-A', '--preload']],
  ])(
    'with the cwdkit/register flag (%s), an app that installs the same strategy goes on; another is refused',
    async (_name, command, flag) => {
      const result = await run(
        command,
        [...flag, path.join(dist, 'register.cjs'), path.join(fixtures, 'app-installs-too.mjs')],
        {
          cwd: scratch,
          env: { CWDKIT_STRATEGY: 'sab-atomics' },
        },
      );
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        byFlag: 'sab-atomics',
        same: { installed: 'sab-atomics', kept: true },
        afterItsUninstall: { installed: 'sab-atomics', kept: true },
        other: {
          code: 'ERR_CWDKIT_ALREADY_INSTALLED',
          message: expect.stringMatching(
            /^A sab-atomics CwdProvider is already installed .* given a main-thread-cache one\. If the cwdkit\/register flag installed it .*remove the flag/,
          ),
          kept: true,
        },
      });
    },
  );
});
