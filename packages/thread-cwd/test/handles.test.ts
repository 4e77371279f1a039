// A directory handle outlives the chdir that retires it while anything may still walk a path joined to it (an async
// call in flight, a disposable's remove, a watcher, a new worker) and is closed once nothing does: each scenario of
// fixtures/handles.cjs in a real child process, held against a process really chdir'd the same way; and unix sockets
// at relative paths, joined to the handle too.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import { describe, expect, it } from 'vitest';
import { noUnshare } from '../../native/test/no-unshare.js';

const script = path.join(import.meta.dirname, 'fixtures', 'handles.cjs');
const nodes = (['node22', 'node24', 'node26'] as const).flatMap((name) => {
  const binary = findRuntime(name);
  return binary ? [[name, binary] as const] : [];
});

/** Whether kernel mode can run here (the addon loads and unshare(CLONE_FS) is allowed). */
const kernelHere = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());

/**
 * One libuv threadpool thread, so the fixture can hold every async call until after its chdir. In thread-cwd's mode
 * for this machine, or, with `handles`, under a seccomp filter that refuses unshare(2) (handles mode).
 */
const run = (node: string, mode: 'real' | 'thread', scenario: string, flags: string[] = [], handles = false) =>
  JSON.parse(
    execFileSync(handles ? noUnshare() : node, [...(handles ? [node] : []), ...flags, script, mode, scenario], {
      encoding: 'utf8',
      env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
    }),
  );

describe.skipIf(nodes.length === 0 || process.platform !== 'linux')('what uses a handle after the next chdir', () => {
  describe.each(nodes)('%s', (name, node) => {
    it('async calls in flight at a chdir read the directory they started in, never the one on a reused fd', () => {
      // The control: a real process's calls reach the OS after its chdir (the pool was held), so they read c.
      expect(run(node, 'real', 'inflight')).toEqual(['ccc', 'ccc', '3', '3', 'f.txt']);
      // A real process whose calls reached the OS before its chdir reads a; b's file ('bb', 2), on the fd numbers
      // freed by an early close, or ENOENT from a closed handle, no real process could give.
      expect(run(node, 'thread', 'inflight')).toEqual(['a', 'a', '1', '1', 'f.txt']);
    });

    it.skipIf(name === 'node22')(
      "mkdtempDisposable(Sync)'s remove and dispose after a chdir remove what they made (Node 24+)",
      () => {
        const real = run(node, 'real', 'disposable');
        expect(real).toEqual({ relative: true, removes: ['removed', 'removed', 'removed'], inA: [], inB: 3 });
        expect(run(node, 'thread', 'disposable')).toEqual(real);
      },
    );

    it('streams made before a chdir open (at the next tick) where a real one does', () => {
      const real = run(node, 'real', 'stream');
      expect(real).toEqual({ text: 'ccc', written: ['c'] });
      expect(run(node, 'thread', 'stream')).toEqual(real);
    });

    it('fs/promises.watch called before a chdir and iterated after it watches where a real one does', () => {
      const real = run(node, 'real', 'watch');
      expect(real).toEqual({ seen: 'c.txt' });
      expect(run(node, 'thread', 'watch')).toEqual(real);
    });

    it('a recursive Dir read after a chdir opens its subfolders in the directory it was opened in, never on a reused fd', () => {
      // The control: a real process opens each subfolder by its path relative to its cwd now (c's sub).
      const inC = ['f.txt', 'sub', 'sub/in-c'];
      expect(run(node, 'real', 'dir')).toEqual({ sync: inC, callback: inC, promise: inC });
      // b's: the fd numbers the chdir freed (a Dir that did not hold its handle); a's: the handle held until close.
      const inA = ['f.txt', 'sub', 'sub/in-a'];
      expect(run(node, 'thread', 'dir')).toEqual({ sync: inA, callback: inA, promise: inA });
    });

    it("openAsBlob's handle is released when its Blob is collected, a slice's when the slice is; a dropped Dir's too", () => {
      const gc = ['--expose-gc', '--no-warnings']; // fs warns as it closes each dropped Dir
      // A real Blob reads its file by the relative path in the cwd now (c's, another size: NotReadableError).
      const stale = 'NotReadableError';
      expect(run(node, 'real', 'blob', gc)).toEqual({ leaked: 0, sliced: stale, streamed: stale, texted: 'a' });
      // A slice outlives its Blob's collection: it still reads a's file through a's handle, never b's.
      // A stream of a Blob collected before its first read too: it holds the handle itself.
      expect(run(node, 'thread', 'blob', gc)).toEqual({ leaked: 0, sliced: 'a', streamed: 'a', texted: 'a' });
    });

    it("a worker started after its parent's directory moved or was deleted (another took its path) starts in it", () => {
      // The control: a worker and a child process of a process whose cwd moved, or was deleted (a worker then fails
      // to start: its bootstrap reads the cwd).
      const moved = run(node, 'real', 'moved');
      expect(moved).toEqual({ worker: { cwd: 'moved', read: 'a' }, child: { cwd: 'moved', read: 'a' } });
      expect(run(node, 'thread', 'moved')).toEqual(moved);
      const deleted = run(node, 'real', 'deleted');
      expect(deleted).toEqual({ worker: { error: 'ENOENT' }, child: { cwd: 'ENOENT', read: 'ENOENT' } });
      expect(run(node, 'thread', 'deleted')).toEqual(deleted);
    });

    it('unix sockets at relative paths: listen, address(), connect, http socketPath and their errors as a real one', () => {
      const real = run(node, 'real', 'socket');
      expect(real).toMatchObject({ listen: 'ok', address: 's.sock', inA: ['h.sock', 's.sock'], connect: 'from-a' });
      expect(real.long).toBe('ok');
      // long: past sun_path's 107 bytes once joined to the handle, a name a real chdir could use: refused, loud.
      expect(real.closed).toEqual(['a', 'b']); // closed after a chdir to c: libuv unlinked c's s.sock
      // Kernel mode: bound and connected on the worker's own thread, in its own cwd, as a real one.
      if (kernelHere) expect(run(node, 'thread', 'socket')).toEqual(real);
      // Handles mode: one difference, libuv unlinks the path it bound, here the joined one, so a's socket (never b's
      // decoy, on the fd numbers the chdir freed: the handle is held until the server closes).
      const long = 'ERR_CWDKIT_SOCKET_PATH_TOO_LONG';
      expect(run(node, 'thread', 'socket', [], true)).toEqual({ ...real, long, closed: ['b', 'c'] });
    });

    it('retired handles are closed once unused: many chdirs with every kind of user leak no fd', () => {
      expect(run(node, 'real', 'leak')).toEqual({ leaked: 0 }); // the control: the count itself
      expect(run(node, 'thread', 'leak')).toEqual({ leaked: 0 });
    });
  });
});
