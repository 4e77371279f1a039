// The setup entry in a Node worker where kernel mode is to be expected (src/early.ts, issue #28 item 5): it loads
// nothing but its own file until the worker's first chdir, and what code captures before that chdir still follows the
// worker after it (trap 15). Each scenario of fixtures/early.cjs runs in a real Node 24 process, its worker started
// with the setup entry preloaded by --require, as vitest's threads and a worker pool start theirs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAJORS } from './majors.js';

const script = path.join(import.meta.dirname, 'fixtures', 'early.cjs');
const packages = path.join(import.meta.dirname, '..', '..');
// Node 24 in npm test; Node 22 and 26 too in npm run test:release (majors.ts).
const nodes = MAJORS.flatMap((name) => {
  const binary = findRuntime(name);
  return binary ? [[name, binary] as const] : [];
});
const kernelHere =
  process.platform === 'linux' &&
  process.env.CWDKIT_THREAD_CWD_KERNEL !== '0' &&
  ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-early-')));
const root = path.join(scratch, 'root');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

beforeAll(() => {
  fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(root, 'x.txt'), 'root');
  fs.writeFileSync(path.join(root, 'sub', 'x.txt'), 'sub');
});

let node = '';
function run(scenario: string, setup?: string, env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const args = [...nodeArgs, script, scenario, root, ...(setup ? [setup] : [])];
  const report = JSON.parse(execFileSync(node, args, { encoding: 'utf8', env: { ...process.env, ...env } }));
  expect(report.failed).toBeUndefined();
  expect(report.main).toEqual({ cwd: root, read: 'root' }); // no worker's chdir moved the process
  return report;
}

// Bun (its `preload` option): no deferral there. What code takes before the first chdir must follow after it, and on
// Bun that is also node:path's resolve and Bun's resolver, which read Bun's cached cwd: the entry installs at once.
const bun = findRuntime('bun');
describe.skipIf(!bun || !kernelHere)('the setup entry in a Bun worker', () => {
  beforeAll(() => {
    node = bun as string;
  });

  it("installs at once, before the worker's code runs", () => {
    const report = run('loads');
    expect(report.files).toContain(path.join(packages, 'thread-cwd', 'dist', 'index.cjs'));
    expect(report.bareFiles).toEqual([]);
    expect(report).toMatchObject({ installed: 'thread-cwd', kernelCwd: path.join(root, 'sub'), read: 'sub' });
  });

  it("node:path's resolve and Bun.resolveSync taken before the first chdir follow the worker after it", () => {
    const sub = path.join(root, 'sub', 'x.txt');
    expect(run('capturedResolve')).toMatchObject({ read: 'sub', async: [sub, sub] });
  });

  it.each(['capturedRequire', 'capturedBuiltin', 'capturedProperty'])(
    '%s: fs/promises functions taken before the first chdir follow the worker after it',
    (scenario) => {
      expect(run(scenario)).toMatchObject({ read: 'sub', async: 'sub' });
    },
  );

  it('Bun.file and Bun.write taken before the first chdir follow the worker after it', () => {
    expect(run('capturedBunFile')).toMatchObject({ read: 'sub', async: ['sub', 'written'] });
    expect(fs.existsSync(path.join(root, 'written.txt'))).toBe(false);
  });
});

describe.skipIf(nodes.length === 0 || !kernelHere).each(nodes)(
  'the setup entry in a %s worker, kernel mode expected',
  (name, binary) => {
    beforeAll(() => {
      node = binary;
    });

    it('loads only its own file and no builtin module the worker had not loaded until the first chdir, which installs', () => {
      const report = run('loads');
      expect(report.files).toEqual([path.join(packages, 'thread-cwd', 'dist', 'setup.cjs')]);
      expect(report.bareFiles).toEqual([]);
      // node:fs/promises and what it loads (a value taken from it is final: early.ts), and Node's own fs/dir module
      // (node:fs's opendir is a lazy property: reading it, to put its trampoline in place, loads it); nothing of
      // cwdkit's, nor the ES module resolver, node:url, node:module, child_process or net. Node 26 loads the ES module
      // loader in every worker, so there the entry syncs the builtins' ES module exports (node:module) at once.
      expect(report.builtins).toContain('NativeModule internal/fs/promises');
      const others = report.builtins.filter(
        (loaded: string) => !/internal\/(fs|readline|repl)\/|fs_dir|fs_event_wrap|Binding uv$|\bos$/.test(loaded),
      );
      expect(others).toEqual(
        name === 'node26' ? ['NativeModule internal/source_map/source_map', 'NativeModule module'] : [],
      );
      expect(report).toMatchObject({ installed: 'thread-cwd', kernelCwd: path.join(root, 'sub'), read: 'sub' });
      // The install's check for functions it does not cover reads no lazy getter of node:fs (fs.ReadStream's loads
      // Node's stream classes: ~0.5 ms of the first chdir).
      expect(report.chdirBuiltins).not.toContain('NativeModule internal/fs/streams');
    });

    it('under cwdkit/register with thread-cwd configured, a worker loads the flag and the setup entry, nothing else', () => {
      const register = path.join(packages, 'cwdkit', 'dist', 'register.cjs');
      const report = run('loadsUnderFlag', undefined, { CWDKIT_STRATEGY: 'thread-cwd' }, ['--import', register]);
      expect(report.files.sort()).toEqual([register, path.join(packages, 'thread-cwd', 'dist', 'setup.cjs')].sort());
      expect(report).toMatchObject({ read: 'sub', kernelCwd: path.join(root, 'sub') });
    });

    it.each([
      ['capturedRequire', "require('fs/promises')"],
      ['capturedBuiltin', "process.getBuiltinModule('node:fs/promises')"],
      ['capturedProperty', 'fs.promises'],
      ['capturedImport', "import('node:fs/promises') from this CommonJS worker (its ES module loader starts later)"],
    ])(
      'fs/promises reached first by %s (%s), its readFile taken before the first chdir, reads there after it',
      (name) => {
        expect(run(name)).toMatchObject({ read: 'sub', async: 'sub' });
      },
    );

    it.each([
      ['esm', 'the ESM entry by --import'],
      ['esmRequired', 'the CJS entry by --require, as the Worker cover adds it'],
    ])(
      'an ES module worker (%s: %s): fs/promises imported, copied, import()ed and required before the first chdir follow',
      (name) => {
        const expected = { read: 'sub', live: 'sub', saved: 'sub', imported: 'sub', required: 'sub' };
        expect(run(name)).toMatchObject(expected);
      },
    );

    it('a worker started before the first chdir starts installed; a Worker class taken before it starts one where it moved', () => {
      expect(run('workersAround')).toMatchObject({
        before: { installed: 'thread-cwd', was: 'root', moved: 'sub' },
        read: 'sub',
        async: { installed: 'thread-cwd', was: 'sub', moved: 'root' },
        after: 'sub', // the child's chdir moved the child alone
      });
    });

    it('a spy put over readFile (fs and fs/promises) before the first chdir and restored after it: both read there', () => {
      expect(run('spyRestored')).toMatchObject({ read: 'sub', spied: 'sub', restored: ['sub', 'sub'] });
    });

    it('a function a library added to node:fs before the first chdir (gracefulify) is not warned about as uncovered', () => {
      expect(run('libraryAdded')).toMatchObject({ read: 'sub', async: 'sub', warnings: [] });
    });

    it('CWDKIT_THREAD_CWD_KERNEL=0 set in the worker after its start: its first chdir is kernel mode, right', () => {
      expect(run('envLate')).toMatchObject({ read: 'sub', async: 'sub', kernelCwd: path.join(root, 'sub') });
    });

    it('a worker under --no-addons installs handles mode at its start, and its chdir works', () => {
      expect(run('noAddons')).toMatchObject({ read: 'sub', async: 'sub', kernelCwd: root });
    });

    it("node:fs's callbacks and a read stream taken before the first chdir read there after it", () => {
      expect(run('capturedCallback')).toMatchObject({
        read: 'sub',
        async: { callback: 'sub', stream: 'sub', size: 3 },
      });
    });

    it('a wrapper put over process.cwd before the first chdir stays on top of the install that chdir triggers', () => {
      expect(run('mock')).toMatchObject({
        mocked: { cwd: '/mocked', resolve: '/mocked/x' },
        restored: path.join(root, 'sub'),
        read: 'sub',
      });
    });

    describe('a copy of the packages whose @cwdkit/native has no addon', () => {
      const copy = path.join(scratch, 'copy');
      const setup = path.join(copy, 'node_modules', '@cwdkit', 'thread-cwd', 'dist', 'setup.cjs');
      beforeAll(() => {
        for (const [name, folder] of [
          ['cwdkit', 'cwdkit'],
          ['@cwdkit/core', 'core'],
          ['@cwdkit/native', 'native'], // its JavaScript only: no build/, no prebuilds/
          ['@cwdkit/sab-atomics', 'sab-atomics'],
          ['@cwdkit/thread-cwd', 'thread-cwd'],
        ] as const) {
          for (const part of ['dist', 'package.json']) {
            fs.cpSync(path.join(packages, folder, part), path.join(copy, 'node_modules', name, part), {
              recursive: true,
            });
          }
        }
      });

      it("the first chdir refuses with ERR_CWDKIT_UNSHARE_FAILED, naming the addon's error and the way out; nothing moved", () => {
        const report = run('refused', setup);
        expect(report.error.code).toBe('ERR_CWDKIT_UNSHARE_FAILED');
        expect(report.error.message).toMatch(/no addon loads .*CWDKIT_THREAD_CWD_KERNEL=0/s);
        expect(report).toMatchObject({ again: 'ERR_CWDKIT_UNSHARE_FAILED', cwd: root, read: 'root', async: 'root' });
      });

      it('with CWDKIT_THREAD_CWD_KERNEL=0 the worker installs handles mode at its start, and its chdir works', () => {
        const report = run('capturedCallback', setup, { CWDKIT_THREAD_CWD_KERNEL: '0' });
        expect(report).toMatchObject({ read: 'sub', async: { callback: 'sub', stream: 'sub', size: 3 } });
      });
    });
  },
);
