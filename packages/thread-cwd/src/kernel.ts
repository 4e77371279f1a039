// Kernel mode: where @cwdkit/native's addon loads and unshare(CLONE_FS) is allowed (Linux without a seccomp filter
// that refuses it, trap 17), an installed worker's chdir is a real fchdir(2) on its own thread, in an fs_struct of its
// own. Calls that run on that thread (sync fs, child_process, process.loadEnvFile, process.dlopen) then need no
// rewrite; what runs on libuv's shared pool (fs callbacks, fs/promises, streams) still goes through the directory's
// handle (cover.ts), since the pool shares the process's fs_struct (trap 16). Elsewhere, handles mode: the cover alone.
import fs from 'node:fs';
import { getSystemErrorName } from 'node:util';
import { codedError } from '@cwdkit/core';
import { type Kernel, kernel } from '@cwdkit/native/kernel';
import { fsOriginals, state } from './state.js';

/** What an installed worker's chdir does: 'kernel' (its own fs_struct, a real fchdir) or 'handles' (the cover alone). */
export type ThreadCwdMode = 'kernel' | 'handles';

/** The kernel calls where unshare(CLONE_FS) is allowed (asked once per process, on a thread made for it), else none. */
export function kernelCalls(): Kernel | undefined {
  const calls = kernel();
  if (calls instanceof Error || calls.probeUnshare() !== 0) return undefined;
  return calls;
}

const O_PATH = 0o10000000;

/**
 * Moves this thread, in the kernel, to the directory `fd` holds: the first time, its fs_struct is made its own
 * (libuv's pool started before, by the addon: trap 16). Throws the OS's error, coded, having moved nothing.
 */
export function kernelChdir(calls: Kernel, fd: number): void {
  if (!state.unshared) {
    const error = calls.unshareFs();
    if (error !== 0) {
      throw codedError(
        new Error(
          `thread-cwd: unshare(CLONE_FS) failed on this thread (${getSystemErrorName(-error)}) after it was allowed ` +
            'on a test thread: this worker cannot have a cwd of its own in the kernel',
        ),
        'ERR_CWDKIT_UNSHARE_FAILED',
      );
    }
    state.unshared = true;
  }
  const error = calls.fchdir(fd);
  if (error !== 0) throw Object.assign(new Error(getSystemErrorName(-error)), { code: getSystemErrorName(-error) });
}

/**
 * A thread whose fs_struct is its own cannot share the process's again: when it goes back to following the process
 * cwd (uninstall, its last provider closed), it is moved to where the process is now, and stays there (README).
 */
export function kernelLeave(calls: Kernel): void {
  if (!state.unshared) return;
  const { closeSync, openSync } = fsOriginals;
  const fd = openSync('/proc/self/cwd', O_PATH | fs.constants.O_DIRECTORY);
  try {
    calls.fchdir(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * After a new worker's thread was made by this one: a thread made by a thread with an fs_struct of its own shares that
 * one (CLONE_FS), so it starts in this thread's directory, as a child process would. This thread then takes a copy of
 * its own again, so that its next chdir does not move that worker too (nor a worker's this one: a worker of another
 * strategy, or one that never chdirs). A worker with thread-cwd installed also makes its own at install.
 */
export function detachWorker(): void {
  if (!state.unshared) return;
  const calls = kernel();
  if (calls instanceof Error) return;
  // Best effort: where it fails, the worker keeps sharing, as without this (an installed worker still unshares).
  calls.unshareFs();
}
