// Kernel mode: where @cwdkit/native's addon loads and unshare(CLONE_FS) is allowed (Linux without a seccomp filter
// that refuses it, trap 17), an installed worker's chdir is a real fchdir(2) on its own thread, in an fs_struct of its
// own. Calls that run on that thread (sync fs, child_process, process.loadEnvFile, process.dlopen) then need no
// rewrite; what runs on libuv's shared pool (fs callbacks, fs/promises, streams) still goes through the directory's
// handle (cover.ts), since the pool shares the process's fs_struct (trap 16). Elsewhere, handles mode: the cover alone.
import { getSystemErrorName } from 'node:util';
import { setEnvironmentData } from 'node:worker_threads';
import { codedError, runtime } from '@cwdkit/core';
import { type Kernel, kernel } from '@cwdkit/native/kernel';
import { PRIVATE_FS } from './routes.js';
import { fsOriginals, handlePath, processCwdLink, state } from './state.js';

const fs = process.getBuiltinModule('node:fs');

/** What an installed worker's chdir does: 'kernel' (its own fs_struct, a real fchdir) or 'handles' (the cover alone). */
export type ThreadCwdMode = 'kernel' | 'handles';

/** The kernel calls where unshare(CLONE_FS) is allowed (asked once per process, on a thread made for it), else none. */
export function kernelCalls(): Kernel | undefined {
  const calls = kernel();
  if (calls instanceof Error || calls.probeUnshare() !== 0) return undefined;
  return calls;
}

/** Why kernelCalls() has none: the addon's load error, or unshare(2)'s. */
export function noKernelCalls(): string {
  const calls = kernel();
  if (calls instanceof Error) return calls.message;
  const error = calls.probeUnshare();
  return error === 0 ? 'kernel mode was turned off' : `unshare(CLONE_FS) was refused (${getSystemErrorName(-error)})`;
}

const O_PATH = 0o10000000;

function unshareFailed(error: number): Error {
  return codedError(
    new Error(
      `thread-cwd: unshare(CLONE_FS) failed on this thread (${getSystemErrorName(-error)}) after it was allowed on ` +
        'a test thread: this worker cannot have a cwd of its own in the kernel',
    ),
    'ERR_CWDKIT_UNSHARE_FAILED',
  );
}

/**
 * Moves this thread, in the kernel, to the directory `fd` holds: the first time, its fs_struct is made its own
 * (libuv's pool started before, by the addon: trap 16). Throws the OS's error, coded, having moved nothing.
 */
export function kernelChdir(calls: Kernel, fd: number): void {
  if (!state.unshared) {
    // Bun starts threads on demand from whichever thread needs one (its work pool, its Worker threads): those this
    // thread starts are routed to share the process's fs_struct too.
    const error = calls.unshareFs(runtime === 'bun');
    if (error !== 0) throw unshareFailed(error);
    state.unshared = true;
    setEnvironmentData(PRIVATE_FS, true);
    routeDlopen(calls);
  }
  const error = calls.fchdir(fd);
  if (error !== 0) throw Object.assign(new Error(getSystemErrorName(-error)), { code: getSystemErrorName(-error) });
  calls.routeThreadStarts(); // a library native code loaded itself since (a plugin: no process.dlopen saw it)
}

/**
 * From the first unshare on, for this thread's life (its fs_struct stays its own): a library it loads has its later
 * thread starts routed to share the process's fs_struct (trap 18). Threads the library started while it loaded (its
 * constructors', its init's) shared this thread's copy: that copy is left to them, moved to the process cwd, and this
 * thread takes a new one, as when it starts a worker.
 */
function routeDlopen(calls: Kernel): void {
  const original = process.dlopen;
  const threads = () => new Set(fsOriginals.readdirSync('/proc/self/task'));
  process.dlopen = function dlopen(this: unknown, ...args: unknown[]) {
    const before = threads();
    try {
      return Reflect.apply(original, this, args);
    } finally {
      calls.routeThreadStarts();
      if ([...threads()].some((id) => !before.has(id))) {
        const start = workerStart();
        start?.enter();
        start?.detach(undefined);
      }
    }
  } as typeof process.dlopen;
}

/**
 * Moves this thread, in the kernel, to where the process is now; where it may not enter it (no search permission),
 * where every relative path fails as it would there.
 */
function toProcessCwd(calls: Kernel): void {
  const { closeSync, openSync } = fsOriginals;
  const fd = openSync(processCwdLink(), O_PATH | fs.constants.O_DIRECTORY);
  try {
    if (calls.fchdir(fd) !== 0) intoDeletedDirectory(calls);
  } finally {
    closeSync(fd);
  }
}

/**
 * Kernel mode, a thread whose fs_struct is its own (it unshared) as it starts a worker: that worker's thread shares
 * this one's fs_struct from its start (CLONE_FS). So, right before Node makes that thread (workers.ts), this thread
 * moves to the process cwd, with the process's umask: a worker that does not run thread-cwd starts where its
 * process.cwd() says (one that does moves to its parent's directory at install, handed over). Right after, this thread
 * takes a copy of its own again and moves back, with its own umask, so that its next chdir moves no worker. A
 * directory this thread may no longer search (its mode changed since the chdir) could not be entered again: the worker
 * then starts in it.
 */
export interface WorkerStart {
  /** Right before the thread is made: after Node's start message, so no getter of the caller's options runs later. */
  enter(): void;
  /** Once the thread exists (idempotent). Throws, the worker terminated, where no copy of its own can be made. */
  detach(worker: unknown): void;
}

export function workerStart(): WorkerStart | undefined {
  if (!state.unshared || runtime === 'bun') return undefined; // Bun: the Worker's thread is made routed (kernelChdir)
  const calls = kernel();
  if (calls instanceof Error) return undefined;
  let moved = false;
  let mask = -1; // this thread's own umask, while it has the process's
  let detached = false;
  return {
    enter() {
      if (moved || detached) return;
      const own = state.kernel ? state.own : undefined;
      if (own !== undefined && !searchable(own.fd)) return;
      mask = calls.umask();
      toProcessCwd(calls);
      moved = true;
    },
    detach(worker) {
      if (detached) return;
      detached = true;
      const error = calls.unshareFs();
      // Read now: a getter of the caller's options may have chdir'd since the worker's construction began.
      const own = state.kernel ? state.own : undefined;
      const back = () => {
        if (!moved) return;
        if (mask >= 0) calls.umask(mask);
        // Its mode changed in between: where every relative path fails, as it would there; never the process cwd.
        if (own !== undefined && calls.fchdir(own.fd) !== 0) intoDeletedDirectory(calls);
      };
      if (error !== 0) {
        (worker as { terminate?: () => unknown } | undefined)?.terminate?.();
        back();
        throw unshareFailed(error);
      }
      back();
    },
  };
}

/** Whether this thread may enter the directory `fd` holds (search permission, as chdir(2) checks). */
function searchable(fd: number): boolean {
  try {
    fsOriginals.statSync(`${handlePath(fd)}/.`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Moves this thread where every relative path fails, as in a directory it may not search (EACCES): an empty one of
 * its own, its search permission taken away once inside, then deleted. Never the process cwd in its stead.
 */
export function intoDeletedDirectory(calls: Kernel): void {
  const { closeSync, openSync } = fsOriginals;
  const os = process.getBuiltinModule('node:os');
  const dir = fs.mkdtempSync(`${os.tmpdir()}/cwdkit-`);
  const fd = openSync(dir, O_PATH | fs.constants.O_DIRECTORY);
  try {
    calls.fchdir(fd);
    fs.chmodSync(dir, 0);
    fs.rmdirSync(dir);
  } finally {
    closeSync(fd);
  }
}
