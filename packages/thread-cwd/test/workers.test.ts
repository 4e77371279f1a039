// What every worker gets, however it was started (issue #22 item 1 and trap 15): each scenario of
// fixtures/workers.cjs in a real child process, on Node 22, 24 and 26, held against a process that really is there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findRuntime } from '@cwdkit/conformance';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MAJORS } from './majors.js';

// Each test runs a Node process that starts tens of workers, synchronously: 64-85 s each here with other work on these
// 2 cores, past vitest's 60 s (five failed so). The timeout only catches a hang.
vi.setConfig({ testTimeout: 300_000 });

const script = path.join(import.meta.dirname, 'fixtures', 'workers.cjs');
const cwdkit = path.join(import.meta.dirname, '..', '..', 'cwdkit', 'dist');
const register = fs.realpathSync(path.join(cwdkit, 'register.cjs'));
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-workers-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const nodes = MAJORS.flatMap((name) => {
  const binary = findRuntime(name);
  return binary ? [[name, binary] as const] : [];
});
let dirs = 0;

function run(node: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return JSON.parse(execFileSync(node, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } }));
}

/** A fresh root (x.txt, sub/x.txt, probe.cjs in both), and the control: what a process really in sub sees. */
function prepare(node: string) {
  const root = path.join(scratch, `root-${dirs++}`);
  run(node, [script, 'prepare', root], scratch);
  const real = run(node, [script, 'real', root], path.join(root, 'sub'));
  expect(real.cwd).toBe(path.join(root, 'sub')); // the control itself: a worker of a process in sub is in sub
  return { root, sub: path.join(root, 'sub'), real };
}

describe.skipIf(nodes.length === 0 || process.platform !== 'linux')(
  'the workers of a thread where thread-cwd is installed',
  () => {
    describe.each(nodes)('%s', (_name, node) => {
      /** Each kind of worker the main thread starts: installed, its chdir its own, its worker in its cwd. */
      function expectKinds(seen: Record<string, unknown>, root: string, real: { child: object }) {
        const sub = path.join(root, 'sub');
        const child = { ...real.child, installed: 'thread-cwd' }; // where the real process's worker is, and installed
        for (const kind of ['file', 'execArgvEmpty', 'eval', 'envEmpty', 'shareEnv']) {
          expect({ kind, ...(seen[kind] as object) }).toEqual({
            kind,
            file: 'root',
            installed: 'thread-cwd',
            cwd: root,
            read: 'root',
            chdir: sub,
            after: 'sub',
            child,
          });
        }
        expect(seen.mainAfter).toEqual({ cwd: root, read: 'root' }); // no worker's chdir moved the process
      }

      it('CWDKIT_STRATEGY=thread-cwd node --import cwdkit/register: every kind of worker (a file, execArgv: [], eval, env: {}, SHARE_ENV) and its worker', () => {
        const { root, real } = prepare(node);
        const seen = run(node, ['--import', register, script, 'kinds', root], root, { CWDKIT_STRATEGY: 'thread-cwd' });
        expect(seen.main).toBe('thread-cwd');
        expectKinds(seen, root, real);
      });

      // The flag loads only the start entry (the Worker cover) at start and the rest at the first use: a worker started
      // before that starts installed, in the process cwd, as one started after.
      it.each([
        ['CWDKIT_STRATEGY=thread-cwd', { CWDKIT_STRATEGY: 'thread-cwd' }],
        ['CWDKIT_STRATEGY=thread-cwd,sab-atomics', { CWDKIT_STRATEGY: 'thread-cwd,sab-atomics' }],
      ])(
        "%s node --import cwdkit/register: every kind of worker started before the first use is installed, and the main thread's first chdir then installs thread-cwd over the same cover",
        (_label, env) => {
          const { root, sub, real } = prepare(node);
          const seen = run(node, ['--import', register, script, 'early', root], root, env);
          expect(seen).toMatchObject({
            pending: 'function',
            files: ['cwdkit/dist/register.cjs', 'thread-cwd/dist/start.cjs', 'thread-cwd/test/fixtures/workers.cjs'],
            stillPending: 'function',
            main: 'thread-cwd',
            sameCover: true,
            moved: { cwd: sub, read: 'sub', late: { ...real.child, installed: 'thread-cwd' } },
            // A worker that never chdir'd follows the main thread's chdir (the deferred load) as a process's does.
            followerBefore: { installed: 'thread-cwd', cwd: root, read: 'root' },
            followerAfter: { installed: 'thread-cwd', cwd: real.cwd, read: real.read },
          });
          expectKinds(seen, root, real);
          // Each early worker's chdir and relative read, held against a process really in sub.
          for (const kind of ['file', 'execArgvEmpty', 'eval', 'envEmpty', 'shareEnv']) {
            const { chdir, after } = seen[kind];
            expect({ kind, chdir, after }).toEqual({ kind, chdir: real.cwd, after: real.read });
          }
        },
      );

      // Node runs no --import in an eval worker, and resolves a bare name again from the cwd a worker starts in: each
      // worker gets the setup entry by its absolute --require instead, its process.execArgv saying what it was given.
      const setupJs = path.join(import.meta.dirname, '..', 'dist', 'setup.js');
      const setupCjs = path.join(import.meta.dirname, '..', 'dist', 'setup.cjs');
      it.each([
        [['--import', '@cwdkit/thread-cwd/setup']],
        [[`--import=${pathToFileURL(setupJs).href}`]],
        [['--require', '@cwdkit/thread-cwd/setup']],
        [[`--require=${setupCjs}`, '--import', '@cwdkit/thread-cwd/setup']], // both: installed once
        [['-r', setupCjs]],
      ])(
        'node %j (started in the project), the main thread then out of it: every kind of worker, from a file and eval, by the command line and by its own execArgv, and their workers',
        (flags) => {
          const { root, real } = prepare(node);
          const seen = run(node, [...flags, script, 'preloaded', root], path.join(import.meta.dirname, '..'));
          expect(seen.main).toBe('thread-cwd');
          expect(seen.resolves).toBe('MODULE_NOT_FOUND'); // the fixture's own check: the bare name fails from root
          const given = { inherited: flags, evalChild: undefined, own: ['--import', '@cwdkit/thread-cwd/setup'] };
          for (const [runName, execArgv] of Object.entries(given)) {
            const child = { ...(runName === 'evalChild' ? real.evalChild : real.child), installed: 'thread-cwd' };
            for (const kind of ['file', 'execArgvEmpty', 'eval', 'envEmpty', 'shareEnv']) {
              const shown = execArgv && { execArgv: kind === 'execArgvEmpty' ? [] : execArgv };
              expect({ runName, kind, ...seen[runName][kind] }).toEqual({
                runName,
                kind,
                file: 'root',
                installed: 'thread-cwd',
                cwd: root,
                read: 'root',
                ...shown,
                chdir: path.join(root, 'sub'),
                after: 'sub',
                child,
              });
            }
          }
          expect(seen.mainAfter).toEqual({ cwd: root, read: 'root' });
        },
      );

      it('the start entry, then install() and uninstall() in the main thread: a worker between is installed, install() adopts the cover, uninstall() puts the exact Worker back', () => {
        const { root } = prepare(node);
        const installed = { file: 'root', cwd: root, read: 'root' };
        expect(run(node, [script, 'started', root], root)).toEqual({
          covered: true,
          between: { ...installed, installed: 'thread-cwd' },
          adopted: true,
          restored: true,
          after: { ...installed, installed: null },
        });
      });

      it('NODE_OPTIONS="$(npx cwdkit flag)": the same', () => {
        const { root, real } = prepare(node);
        const flag = execFileSync(node, [path.join(cwdkit, 'cli.js'), 'flag'], { encoding: 'utf8' }).trim();
        const seen = run(node, [script, 'kinds', root], root, { CWDKIT_STRATEGY: 'thread-cwd', NODE_OPTIONS: flag });
        expect(seen.main).toBe('thread-cwd');
        expectKinds(seen, root, real);
      });

      it('install(createProvider()) in the main thread by the app, no flag: the workers it starts afterwards are installed', () => {
        const { root, real } = prepare(node);
        const seen = run(node, [script, 'app', root], root);
        expect(seen.main).toBe('thread-cwd');
        expectKinds(seen, root, real);
      });

      it('a child process forked from a worker starts as it would without thread-cwd: the preload added to the worker is not in its process.execArgv, so not in the child (not installed there)', () => {
        const { root } = prepare(node);
        // The control: the same workers without thread-cwd; a child inherits its worker's execArgv, nothing installed.
        const real = run(node, [script, 'forkedReal', root], root);
        const child = { execArgv: [], installed: null };
        expect(real).toEqual({
          worker: { installed: null, execArgv: [], child, inner: { installed: null, execArgv: [], child } },
          own: {
            installed: null,
            execArgv: ['--no-warnings'],
            child: { execArgv: ['--no-warnings'], installed: null },
          },
        });
        const thread = (seen: { installed: unknown }) => ({ ...seen, installed: 'thread-cwd' });
        expect(run(node, [script, 'forked', root], root)).toEqual({
          worker: { ...thread(real.worker), inner: thread(real.worker.inner) },
          own: thread(real.own),
        });
      });

      it("the main thread's uninstall() puts Worker back: a worker started then is not installed", () => {
        const { root } = prepare(node);
        expect(run(node, [script, 'appUninstalled', root], root)).toEqual({
          covered: true,
          restored: true,
          after: { file: 'root', installed: null, cwd: root, read: 'root' },
        });
      });

      it("a Worker class taken before install(): in a chdir'd worker its new Worker throws ERR_CWDKIT_WORKER_CLASS_CAPTURED (never a worker in the wrong cwd); an ESM named import and one taken after follow", () => {
        const { root, sub, real } = prepare(node);
        const child = { ...real.child, installed: 'thread-cwd' };
        expect(run(node, [script, 'captured', root], root)).toEqual({
          preloaded: false,
          // Before the chdir the thread is in the process cwd: a bare worker starts in the right place.
          earlyBeforeChdir: { file: 'root', installed: null, cwd: root, read: 'root' },
          early: { threw: 'ERR_CWDKIT_WORKER_CLASS_CAPTURED' },
          earlyEval: { threw: 'ERR_CWDKIT_WORKER_CLASS_CAPTURED' },
          named: child,
          late: child,
          lateBare: child,
        });
        // Where the thread preloads the setup entry, the captured class's workers inherit it: installed, in its cwd.
        expect(run(node, [script, 'capturedPreloaded', root], root)).toEqual({
          preloaded: true,
          earlyBeforeChdir: { file: 'root', installed: 'thread-cwd', cwd: root, read: 'root' },
          early: child,
          earlyEval: sub,
          named: child,
          late: child,
          lateBare: child,
        });
      });
    });
  },
);
