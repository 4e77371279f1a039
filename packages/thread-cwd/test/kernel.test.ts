// Kernel mode's traps (issue #28 item 4), each in a fresh Node process (the pool and the fs_structs are process
// state): fixtures/kernel.cjs. Skipped, visibly, where kernel mode cannot run (no addon, or unshare(2) refused).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import { afterAll, describe, expect, it } from 'vitest';
import { noUnshare } from '../../native/test/no-unshare.js';
import { MAJORS } from './majors.js';

const run = promisify(execFile);
const script = path.join(import.meta.dirname, 'fixtures', 'kernel.cjs');
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-kernel-')));
fs.chmodSync(scratch, 0o755); // nobody must be able to start in it (the no-search test)
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const kernelHere = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());
const nodes = MAJORS.flatMap((name) => {
  const binary = findRuntime(name);
  return binary ? [[name, binary] as const] : [];
});
let roots = 0;

/** Runs a scenario in a fresh root (home/, a/, b/, c/, each with a file `name`), started in home/. */
async function scenario(node: string, name: string, prefix: string[] = [], nodeArgs: string[] = [], timeout = 0) {
  const root = path.join(scratch, `root-${roots++}`);
  for (const dir of ['home', 'a', 'b', 'c']) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, dir, 'name'), dir);
  }
  const command = [...prefix, node, ...nodeArgs, script, name, root];
  const { stdout } = await run(command[0] as string, command.slice(1), { cwd: path.join(root, 'home'), timeout });
  return { root, seen: JSON.parse(stdout) };
}

describe.skipIf(!kernelHere || nodes.length === 0)('kernel mode', () => {
  describe.each(nodes)('%s', (_name, node) => {
    it("a worker that chdirs before anything used libuv's pool: the main thread's async calls stay in its cwd", async () => {
      const { root, seen } = await scenario(node, 'pool');
      expect(seen.worker).toEqual({ mode: 'kernel', sync: 'a', promise: 'a', kernel: path.join(root, 'a') });
      // Without the pool started before the worker's unshare: ENOENT for both (the pool in the worker's directory).
      expect(seen.main).toEqual({ sync: 'home', promise: 'home', callback: 'home', kernel: path.join(root, 'home') });
    });

    it("a worker's worker starts in its parent's directory, then moves only itself", async () => {
      const { root, seen } = await scenario(node, 'nested');
      const at = (dir: string) => ({ cwd: path.join(root, dir), sync: dir, kernel: path.join(root, dir) });
      expect(seen.mode).toBe('kernel');
      expect(seen.child.atStart).toEqual(at('a'));
      // Its parent moved to c: the child, which shared its parent's fs_struct when it started, stays in a.
      expect(seen.child.afterParentMoved).toEqual({ ...at('a'), afterOwnChdir: at('b') });
      expect(seen.parent).toEqual({ sync: 'c', kernel: path.join(root, 'c') });
      expect(seen.main).toEqual({ sync: 'home', kernel: path.join(root, 'home') });
    });

    it("a worker of another strategy, started by a worker with its own cwd: in the process cwd, as its process.cwd() says, not moved by its parent's next chdir", async () => {
      const { seen } = await scenario(node, 'nestedOther');
      const at = (dir: string) => ({ cwd: dir, sync: dir, promise: dir, kernel: dir });
      expect(seen.mode).toBe('kernel');
      // Without its parent's move to the process cwd around its start: sync and kernel 'a', its parent's directory.
      expect(seen.child.atStart).toEqual({ installed: 'sab-atomics', ...at('home') });
      // Without the parent's new copy after the worker's start: c, the parent's new directory.
      expect(seen.child.afterParentMoved).toEqual(at('home'));
      // What is left (README): the main thread's chdir reaches its async calls only; no cover runs in it.
      expect(seen.child.afterMainMoved).toEqual({ ...at('home'), promise: 'b' });
      expect(seen.parent).toEqual(at('c'));
    });

    it('uninstall() leaves the worker in the process cwd of that moment, where everything of it stays, its new workers too; install() again takes its covers back', async () => {
      const { seen } = await scenario(node, 'uninstall');
      const at = (dir: string) => ({ cwd: dir, sync: dir, promise: dir, kernel: dir });
      expect(seen.mode).toBe('kernel');
      expect(seen.before).toEqual(at('a'));
      expect(seen.after).toEqual(at('home'));
      // The main thread then moved to b, then to c: this worker's fs_struct cannot be the process's again, so it
      // stays, and its async calls with it (without the covers it keeps: 'b', then 'c'), as a child process would.
      expect(seen.afterMainMoved).toEqual({ ...at('home'), child: at('home') });
      expect(seen.afterMainMovedAgain).toEqual({
        ...at('home'),
        child: at('home'),
        afterReinstall: { ...at('a'), sameCover: true },
      });
    });

    it('a worker installs thread-cwd without node:child_process, node:net or node:module; named imports made after follow', async () => {
      const { seen } = await scenario(node, 'lean');
      // Without the kernel-mode cover (and with node:module loaded for syncBuiltinESMExports): all three.
      const loaded = seen.esmLoader ? ['module'] : []; // Node 26 loads the ES module loader in every worker
      expect(seen).toEqual({ mode: 'kernel', esmLoader: seen.esmLoader, loaded, promise: 'a', callback: 'a' });
    });

    it("workers started by a worker with its own cwd take the process's umask of their start, of another strategy too", async () => {
      const { seen } = await scenario(node, 'umaskNested');
      // Without the parent taking the process's umask around each start: 644, its own of its first chdir.
      expect(seen).toEqual({ own: '600', other: '600' });
    });

    it("the caller's Worker options (getters of workerData and env) are read in the parent's cwd", async () => {
      const { seen } = await scenario(node, 'optionGetters');
      // Without the move waiting for Node's start message: 'home', the process cwd, for both getters.
      expect(seen).toEqual({ workerData: 'a', env: 'a', after: 'a' });
    });

    it.skipIf(process.getuid?.() !== 0)(
      'a process cwd that may not be searched (as nobody): uninstall() and a worker of another strategy fail relative paths with EACCES, as a thread there would',
      async () => {
        const { seen } = await scenario(node, 'noSearch', [
          'setpriv',
          '--reuid=nobody',
          '--regid=nogroup',
          '--clear-groups',
        ]);
        // Without: uninstall() threw EACCES and left thread-cwd installed, reading 'a'; the other worker read 'a'.
        expect(seen).toEqual({
          mode: 'kernel',
          other: expect.stringMatching(/^error /), // its register cannot read the cwd's package.json either
          uninstalled: 'ok',
          installed: null,
          read: 'EACCES',
        });
      },
    );

    it.each(['addonThreadsLoadedFirst', 'addonThreadsLoadedLater'])(
      "threads an addon starts from a worker with its own cwd share the process's cwd, as libuv's pool does (%s)",
      async (name) => {
        const { seen } = await scenario(node, name);
        // The addon's pools (pthread_create, std::thread, at its load), made by the worker, and its calling thread.
        const reads = (here: string) => ({ read: 'home', readStd: 'home', readAtInit: 'home', readHere: here });
        // Without the routing, the main thread's reads on the pools the worker made answered b, the worker's last cwd.
        expect(seen.main).toEqual(reads('home'));
        expect(seen.worker).toEqual({ mode: 'kernel', inA: reads('a'), inB: reads('b'), kernel: 'b' });
      },
    );

    it("a thread an addon makes from a worker with its own cwd keeps the worker's nice, and its sandbox (then the worker's cwd)", async () => {
      const { root, seen } = await scenario(node, 'addonThreadFacts');
      const home = path.join(root, 'home');
      expect(seen.mode).toBe('kernel');
      expect(seen.first).toBe(`nice=0 seccomp=0 mkdir=made cwd=${home}`);
      // Made by the starter without its maker's nice: 0.
      expect(seen.niced).toBe(`nice=7 seccomp=0 mkdir=made cwd=${home}`);
      expect(seen.confined).toBe(0);
      // Made by the starter: out of the worker's sandbox (seccomp 0, mkdir made). Made by the worker: in its cwd.
      expect(seen.inSandbox).toBe(`nice=7 seccomp=2 mkdir=EPERM cwd=${path.join(root, 'a')}`);
    });

    it('a worker with its own cwd loading libraries while the main thread loads others: neither waits for ever', async () => {
      // Routing under the loader's lock once called dladdr (a second loader lock, which dlopen takes first): a hang.
      const { seen } = await scenario(node, 'loaders', [], [], 60_000);
      expect(seen).toEqual({ mode: 'kernel', loaded: 150 });
    }, 90_000);

    it("a real addon's own pool (lightningcss, rayon) made by a worker with its own cwd: the main thread's bundle is its own file", async () => {
      const { seen } = await scenario(node, 'lightningcss');
      // Without the routing, the main thread's bundleAsync() read the worker's a/x.css (the pool in the worker's cwd).
      expect(seen.main).toEqual({ async: 'home', sync: 'home' });
      // The worker's async bundle runs on that pool, in the process cwd (a documented limit); its sync one follows it.
      expect(seen.worker).toMatchObject({ mode: 'kernel', async: 'home', sync: 'a' });
      // A sync bundle() reads its entry on the worker's thread and its @import on the pool: given a relative name, the
      // import is the process cwd's (the README says so, and to give such calls absolute paths, which hold).
      expect(seen.worker.imports).toEqual({ relative: '.homeb .a', absolute: '.ab .a' });
    });

    it("what no cover reaches (Node's raw cwd, native code on the thread) answers as a real chdir's", async () => {
      const { seen } = await scenario(node, 'reach', [], ['--experimental-shadow-realm']);
      const { mode, ...thread } = seen.thread;
      expect(mode).toBe('kernel');
      expect(seen.real).toMatchObject({ sqlite: 'made.sqlite in a', wasiPreopen: 'opened', shadowRealm: 'a' });
      expect(thread).toEqual(seen.real);
    });

    it('workers terminated while they chdir leave the main thread where it was, and no handle behind', async () => {
      const { seen } = await scenario(node, 'terminated');
      expect(seen).toEqual({ sync: 'home', promise: 'home', kernel: 'home', handlesLeft: 0 });
    });

    it("what runs while Node builds a worker runs in the parent's cwd; a chdir there holds; the parent keeps its umask", async () => {
      const { seen } = await scenario(node, 'starting');
      const at = (dir: string) => ({ cwd: dir, sync: dir, promise: dir, kernel: dir });
      expect(seen).toEqual({
        subscriber: 'b', // Node's worker_threads channel, its subscriber reading a file (before: the process cwd's)
        afterGetterChdir: at('b'), // a getter's chdir (before: sync calls back in a, the directory before it)
        // A worker of another strategy whose options construct another one (before: a, then c, with its parent)
        other: { atStart: at('home'), afterParentMoved: at('home') },
        parentFileMode: '644', // its own umask of its first chdir, 022 (before: 077, the process's at a worker's start)
      });
    });

    it('uninstall() twice, the main thread moving between: back where the first left it, as Node caches; a provider cannot chdir meanwhile', async () => {
      const { seen } = await scenario(node, 'uninstallTwice');
      // Before: Node's process.cwd() said home while the files were read from b; and a provider's chdir moved only
      // the async calls.
      expect(seen).toEqual({
        cwd: 'home',
        sync: 'home',
        promise: 'home',
        kernel: 'home',
        chdir: 'ERR_WORKER_UNSUPPORTED_OPERATION',
      });
    });

    it("the umask a worker copies at its first chdir is the process's, even while another thread reads it (Node sets it to 0 and back)", async () => {
      const { seen } = await scenario(node, 'umaskRace');
      // Without Node's umask mutex held around the copy: some workers create files 666 for their whole life.
      expect(seen).toEqual({ 'kernel 644': 24 });
    });

    it("the umask: a worker's own fs_struct keeps the process's umask of its first chdir for what it creates on its thread", async () => {
      const { seen } = await scenario(node, 'umask');
      expect(seen).toEqual({
        mode: 'kernel',
        // Created on the worker's thread (sync) and on the shared pool (promises), before and after the main thread
        // changed the umask from 077 to 022: on the pool the process's umask of the moment, on the thread its copy.
        files: [
          ['sync-before', '600'],
          ['pool-before', '600'],
          ['sync-after', '600'],
          ['pool-after', '644'],
        ],
        umask: '77',
      });
    });
  });
});

describe.skipIf(nodes.length === 0)('handles mode, where seccomp refuses unshare(2)', () => {
  const node = (nodes.find(([name]) => name === 'node24') ?? nodes[0])?.[1] as string;

  it("the umask is the process's, on the thread and on the pool alike", async () => {
    const { seen } = await scenario(node, 'umask', [noUnshare()]);
    expect(seen).toEqual({
      mode: 'handles',
      files: [
        ['sync-before', '600'],
        ['pool-before', '600'],
        ['sync-after', '644'],
        ['pool-after', '644'],
      ],
      umask: '22',
    });
  });

  it("what no cover reaches uses the process cwd (the README's list of what handles mode does not cover)", async () => {
    const { seen } = await scenario(node, 'reach', [noUnshare()], ['--experimental-shadow-realm']);
    expect(seen.thread).toEqual({
      ...seen.real,
      mode: 'handles',
      shadowRealm: 'TypeError', // its specifier resolved against the process cwd: not found
      sqlite: 'made.sqlite elsewhere',
      report: 'made-report.json elsewhere',
      heapSnapshot: 'made.heapsnapshot elsewhere',
      wasiPreopen: 'UVWASI_ENOENT',
    });
  });

  it("a worker's worker starts in its parent's directory, then moves only itself (through the cover)", async () => {
    const { root, seen } = await scenario(node, 'nested', [noUnshare()]);
    const at = (dir: string) => ({ cwd: path.join(root, dir), sync: dir, kernel: path.join(root, 'home') });
    expect(seen.mode).toBe('handles');
    expect(seen.child.atStart).toEqual(at('a'));
    expect(seen.child.afterParentMoved).toEqual({ ...at('a'), afterOwnChdir: at('b') });
    expect(seen.parent).toEqual({ sync: 'c', kernel: path.join(root, 'home') });
  });
});
