// Deno's kernel mode (src/deno.ts): a Deno worker's own cwd through Deno.dlopen of libc, in both worker kinds
// (node:worker_threads, and web Workers, where worker_threads says isMainThread), each scenario in a fresh Deno process
// (test/fixtures/deno/scenario.mjs); the refusals without --allow-ffi and under a seccomp filter that refuses
// unshare(2); and `deno test --parallel --preload` on examples/deno-test-parallel. Skipped, visibly, without the deno
// npm package; the kernel scenarios also where unshare(2) is refused here.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import { afterAll, describe, expect, it } from 'vitest';
import { noUnshare } from '../../native/test/no-unshare.js';

const run = promisify(execFile);
const deno = findRuntime('deno');
const script = path.join(import.meta.dirname, 'fixtures', 'deno', 'scenario.mjs');
const example = path.join(import.meta.dirname, '..', 'examples', 'deno-test-parallel');
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-deno-')));
fs.chmodSync(scratch, 0o755); // nobody must be able to start in it (the EACCES test)
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const unshareHere = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());
const TIMEOUT = 120_000;
let roots = 0;

/** A fresh root: home/, a/, b/, c/, each with a file `name`, and locked/ (0700). */
function freshRoot(): string {
  const root = path.join(scratch, `root-${roots++}`);
  for (const dir of ['home', 'a', 'b', 'c']) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, dir, 'name'), dir);
  }
  fs.mkdirSync(path.join(root, 'locked'), 0o700);
  return root;
}

/**
 * The kernel scenarios that need nothing but -A, all of one worker kind in one Deno process (each from its own root),
 * run at the first test that asks for one of them: a Deno start costs ~0.5 s here. umask last (it changes the main
 * thread's).
 */
const BATCH = ['kernel', 'follow', 'nested', 'setup', 'extra', 'uninstall', 'umask'];
type Seen = { root: string; seen: ReturnType<typeof JSON.parse> };
const batches = new Map<string, Promise<Record<string, Seen>>>();
function batched(kind: string, name: string) {
  let batch = batches.get(kind);
  if (batch === undefined) {
    const items = BATCH.map((item) => [item, freshRoot()] as const);
    const args = [
      'run',
      '-A',
      '--unstable-kv',
      script,
      'batch',
      kind,
      ...items.map(([item, root]) => `${item}=${root}`),
    ];
    batch = run(deno as string, args, { cwd: path.join(items[0]?.[1] as string, 'home') }).then(({ stdout }) => {
      const lines = stdout.trim().split('\n');
      const all = JSON.parse(lines[lines.length - 1] as string);
      return Object.fromEntries(items.map(([item, root]) => [item, { root, seen: all[item] }]));
    });
    batches.set(kind, batch);
  }
  return batch.then((all) => all[name] as Seen);
}

/** Runs a scenario in a fresh root (freshRoot()), started in its home/. */
async function scenario(
  name: string,
  kind: string,
  options: { prefix?: string[]; permissions?: string[] | ((root: string) => string[]) } = {},
) {
  const root = freshRoot();
  const { prefix = [] } = options;
  const permissions =
    typeof options.permissions === 'function' ? options.permissions(root) : (options.permissions ?? ['-A']);
  const command = [...prefix, deno as string, 'run', ...permissions, script, name, kind];
  const { stdout, stderr } = await run(command[0] as string, command.slice(1), { cwd: path.join(root, 'home') });
  const lines = stdout.trim().split('\n');
  return { root, seen: JSON.parse(lines[lines.length - 1] as string), stderr };
}

/** What see() (fixtures/deno/see.mjs) gives in directory `dir` of `root`: every kind of call answers there. */
const at = (root: string, dir: string) => ({
  cwd: path.join(root, dir),
  process: path.join(root, dir),
  resolve: path.join(root, dir),
  realPath: path.join(root, dir),
  sync: dir,
  fsSync: dir,
  async: [dir],
  stat: true,
  promises: dir,
  callback: dir,
  command: dir,
});
const kernelCapabilities = {
  workerCoherent: true,
  chdirFromWorker: true,
  externalChange: 'never',
  chdirScope: 'thread',
  threadCwd: 'kernel',
};

describe.skipIf(deno === undefined)('Deno', () => {
  describe.skipIf(!unshareHere).each(['wt', 'web'])('kernel mode, %s workers', (kind) => {
    it(
      "a worker that used its blocking pool before its first chdir: every call follows it, the main thread's stay",
      async () => {
        const { root, seen } = await batched(kind, 'kernel');
        expect(seen.mainInstall).toEqual({ capabilities: kernelCapabilities, warnings: [] });
        // Without the parked pool threads, the async ones (Deno.readTextFile, fs.promises, callbacks) answer 'home'.
        expect(seen.worker).toEqual([null, kernelCapabilities, null, at(root, 'a'), null, at(root, 'b')]);
        expect(seen.main).toEqual(at(root, 'home'));
      },
      TIMEOUT,
    );

    it(
      "a worker that never chdir'd follows the main thread's chdir; one that did keeps its own",
      async () => {
        const { root, seen } = await batched(kind, 'follow');
        expect(seen.before).toEqual([
          [kernelCapabilities, null, at(root, 'a')],
          [kernelCapabilities, at(root, 'home')],
        ]);
        expect(seen.after).toEqual([[at(root, 'a')], [at(root, 'c')]]);
        expect(seen.main).toEqual(at(root, 'c'));
      },
      TIMEOUT,
    );

    it(
      "a worker's worker starts in its parent's directory, moves only itself, and follows its parent until then",
      async () => {
        const { root, seen } = await batched(kind, 'nested');
        expect(seen.parent).toEqual([
          kernelCapabilities,
          null,
          null,
          null,
          [kernelCapabilities, at(root, 'a'), null, at(root, 'b')],
          [kernelCapabilities, at(root, 'a')],
          null,
          [at(root, 'b')], // it chdir'd: its parent's chdir leaves it
          [at(root, 'c')], // it never did: it shares its parent's fs_struct, as a thread shares its creator's
          at(root, 'c'),
        ]);
        expect(seen.main).toEqual(at(root, 'home'));
      },
      TIMEOUT,
    );
  });

  describe.skipIf(!unshareHere).each(['wt', 'web'])('the setup entry, %s workers', (kind) => {
    it(
      "loads thread-cwd at the worker's first chdir, by process.chdir or a Deno.chdir taken before; each moves its worker alone",
      async () => {
        const { root, seen } = await batched(kind, 'setup');
        // Loaded at the entry, before the install was deferred.
        expect(seen.one).toEqual([{ indexLoaded: false }, null, null, true, at(root, 'a')]);
        // A Deno.chdir taken before the stubs were there would have moved the process: main would read b.
        expect(seen.two).toEqual([{ indexLoaded: false }, null, null, null, true, at(root, 'b')]);
        expect(seen.main).toEqual(at(root, 'home'));
        expect(seen.after).toEqual([[at(root, 'a')], [at(root, 'b')]]);
      },
      TIMEOUT,
    );
  });

  describe.skipIf(!unshareHere).each(['wt', 'web'])(
    'the setup entry, %s workers: faults at the first chdir',
    (kind) => {
      it(
        'a module beside the entry chdirs at its load; Deno frozen since; out of descriptors: never another thread moved',
        async () => {
          const { root, seen } = await scenario('setupFaults', kind, { prefix: ['prlimit', '--nofile=512:512'] });
          // Before the stubs were placed ahead of the entry's await, the sibling's chdir moved the whole process.
          expect(seen.sibling).toEqual([true, at(root, 'a')]);
          const notWritable = { error: 'ERR_CWDKIT_INSTALL_REFUSED', message: expect.stringContaining('frozen') };
          // Before, a failed load was forgotten and the next chdir was Deno's own: the main thread moved to a.
          expect(seen.frozen).toEqual([{ indexLoaded: false }, null, notWritable, notWritable, at(root, 'home')]);
          // Before, the load's EMFILE was kept for the worker's life: the second chdir failed too.
          expect(seen.starved).toEqual([
            { indexLoaded: false },
            'EMFILE',
            { error: 'EMFILE', message: expect.any(String) },
            null,
            null,
            at(root, 'b'),
          ]);
          expect(seen.main).toEqual(at(root, 'home'));
        },
        TIMEOUT,
      );
    },
  );

  describe.skipIf(!unshareHere).each(['wt', 'web'])(
    'kernel mode, %s workers: what the fs_struct also holds',
    (kind) => {
      it(
        "node:sqlite, Deno.openKv, Deno.watchFs and unix sockets (Deno and node:net) use the worker's directory",
        async () => {
          const { seen } = await batched(kind, 'extra');
          expect(seen.worker[2]).toEqual({
            sqlite: true,
            kv: true,
            watch: ['a/watched'],
            unix: 'listened',
            nodeNet: 'listened',
            after: ['kv.db', 'name', 'watched', 'x.db'],
          });
          expect(seen.home).toEqual(['name']);
        },
        TIMEOUT,
      );

      it(
        "the umask: a worker keeps the one of its first chdir when the main thread's changes (a documented difference)",
        async () => {
          const { seen } = await batched(kind, 'umask');
          expect(seen.worker).toEqual([kernelCapabilities, null, 0o644, 0o644]);
          expect(seen.main).toBe(0o600);
        },
        TIMEOUT,
      );

      it(
        'after uninstall() a worker goes to the process cwd, and a later Deno.chdir of its own moves it alone',
        async () => {
          const { root, seen } = await batched(kind, 'uninstall');
          expect(seen.worker).toEqual([kernelCapabilities, null, null, at(root, 'home'), null, at(root, 'b')]);
          expect(seen.main).toEqual(at(root, 'home'));
        },
        TIMEOUT,
      );
    },
  );

  describe.skipIf(!unshareHere || process.getuid?.() !== 0).each(['wt', 'web'])('as nobody, %s workers', (kind) => {
    it(
      'a first chdir the OS refuses (EACCES) throws as Deno.chdir does and changes nothing: the worker still follows',
      async () => {
        const prefix = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
        const { root, seen } = await scenario('refusedFirst', kind, { prefix });
        expect(seen.real).toBe('EACCES');
        expect(seen.worker).toEqual([
          kernelCapabilities,
          { error: 'EACCES', message: `EACCES: permission denied, chdir '${path.join(root, 'home')}' -> '../locked'` },
          at(root, 'home'),
          at(root, 'a'),
        ]);
      },
      TIMEOUT,
    );
  });

  it.skipIf(!unshareHere)(
    'async calls in flight at the first chdir (both worker kinds): waited for and parked once done; where they never end, the chdir is refused and nothing moves',
    async () => {
      const { root, seen } = await scenario('inFlight', 'both');
      // Without the wait, the FIFO read's pool thread was left in the process cwd: later async calls answered 'home'.
      expect(seen.wait).toEqual([0, 1].map(() => [kernelCapabilities, null, null, null, null, at(root, 'a')]));
      const refused = {
        error: 'ERR_CWDKIT_ASYNC_IN_FLIGHT',
        message: expect.stringContaining('so the chdir is refused and nothing moved'),
      };
      expect(seen.refuse).toEqual(
        [0, 1].map(() => [
          kernelCapabilities,
          null,
          null,
          refused,
          at(root, 'home'),
          at(root, 'c'), // it still follows the main thread
          null,
          ['done'],
          null,
          at(root, 'b'),
        ]),
      );
      expect(seen.main).toEqual(at(root, 'c'));
    },
    TIMEOUT,
  );

  describe.skipIf(!unshareHere).each(['wt', 'web'])('granular permissions, %s workers', (kind) => {
    it(
      'a first chdir Deno refuses (no --allow-read for it) throws as Deno.chdir does and changes nothing: the worker still follows',
      async () => {
        const repo = path.join(import.meta.dirname, '..', '..', '..');
        const { root, seen } = await scenario('refusedPermission', kind, {
          permissions: (root) => [
            '--allow-ffi',
            '--allow-env',
            '--allow-run',
            `--allow-read=${repo},${path.join(root, 'home')},${path.join(root, 'c')}`,
          ],
        });
        const [capabilities, refusal, before, after] = seen.worker;
        expect(capabilities).toEqual(kernelCapabilities);
        expect(refusal.error).toBe('NotCapable');
        expect(before).toEqual(at(root, 'home'));
        // Before the fix the refused chdir had unshared the thread already: it stayed in home.
        expect(after).toEqual(at(root, 'c'));
      },
      TIMEOUT,
    );
  });

  describe.each(['wt', 'web'])('refused, %s workers', (kind) => {
    it(
      'without --allow-ffi: install() in a worker names the flag to grant; the main thread is process-scoped',
      async () => {
        const permissions = ['--allow-read', '--allow-write', '--allow-env', '--allow-run', '--allow-sys'];
        const { root, seen, stderr } = await scenario('refuse', kind, { permissions });
        expect(seen.mainInstall.capabilities.chdirScope).toBe('process');
        expect(seen.mainInstall.warnings).toEqual(['CWDKIT_THREAD_CWD_PROCESS_SCOPE']);
        expect(stderr).toContain('--allow-ffi');
        const [refusal, after] = seen.worker;
        expect(refusal.error).toBe('ERR_CWDKIT_UNSUPPORTED_RUNTIME');
        expect(refusal.message).toContain('--allow-ffi');
        expect(after).toEqual(at(root, 'home'));
        // The setup entry refuses at once too, not at the first chdir.
        expect(seen.setup[0]).toMatchObject({ error: 'ERR_CWDKIT_UNSUPPORTED_RUNTIME' });
        expect(seen.main).toEqual(at(root, 'home'));
      },
      TIMEOUT,
    );

    it(
      "where a seccomp filter refuses unshare(2) (Docker's default profile): install() in a worker refuses",
      async () => {
        const { root, seen } = await scenario('refuse', kind, { prefix: [noUnshare()] });
        expect(seen.mainInstall.capabilities.chdirScope).toBe('process');
        const [refusal, after] = seen.worker;
        expect(refusal.error).toBe('ERR_CWDKIT_UNSUPPORTED_RUNTIME');
        expect(refusal.message).toContain('seccomp');
        expect(after).toEqual(at(root, 'home'));
        expect(seen.setup[0]).toMatchObject({ error: 'ERR_CWDKIT_UNSUPPORTED_RUNTIME' });
      },
      TIMEOUT,
    );
  });

  it.skipIf(!unshareHere)(
    "`cwdkit which` on Deno prints capabilities.threadCwd 'kernel'",
    async () => {
      const cli = path.join(import.meta.dirname, '..', '..', 'cwdkit', 'dist', 'cli.js');
      const { stdout } = await run(deno as string, ['run', '-A', cli, 'which', '--json'], {
        cwd: import.meta.dirname,
        env: { ...process.env, CWDKIT_STRATEGY: 'thread-cwd' },
      });
      expect(JSON.parse(stdout).capabilities).toEqual(kernelCapabilities);
    },
    TIMEOUT,
  );

  describe('deno test --parallel --preload npm:@cwdkit/thread-cwd/setup (examples/deno-test-parallel)', () => {
    const test = (args: string[], cwd = example) =>
      run(deno as string, ['test', ...args, '--parallel'], {
        cwd,
        env: { ...process.env, DENO_JOBS: '2', NO_COLOR: '1', TMPDIR: scratch },
      }).then(
        ({ stdout }) => ({ passed: true, stdout }),
        (error: { stdout: string }) => ({ passed: false, stdout: error.stdout }),
      );

    it.skipIf(!unshareHere)(
      'a module that chdirs and one that reads its cwd keep their own directories',
      async () => {
        const { passed, stdout } = await test(['-A', '--preload', 'npm:@cwdkit/thread-cwd/setup']);
        expect(stdout).toContain('2 passed | 0 failed');
        expect(passed, stdout).toBe(true);
      },
      TIMEOUT,
    );

    it.skipIf(!unshareHere)(
      "deno test runs modules on its pool threads, one after another: a module that chdir'd and stayed leaves the next in the process cwd",
      async () => {
        // Three modules chdir and stay, three read their cwd at load. Without the thread going back at unload, one of
        // them started in dir1 in each of 5 runs here.
        const reuse = path.join(import.meta.dirname, 'fixtures', 'deno', 'reuse');
        const { passed, stdout } = await test(['-A', '--preload', 'npm:@cwdkit/thread-cwd/setup'], reuse);
        expect(stdout).toContain('6 passed | 0 failed');
        expect(passed, stdout).toBe(true);
      },
      TIMEOUT,
    );

    it(
      'without the preload, the chdir of one module moves the other (what the example is for)',
      async () => {
        // --no-check: the run with the preload type-checks the example already (3 s of this test's 4 here).
        const { passed, stdout } = await test(['-A', '--no-check']);
        expect(stdout).toContain('1 passed | 1 failed');
        expect(passed).toBe(false);
      },
      TIMEOUT,
    );
  });
});
