// `@cwdkit/native/kernel`: the system calls behind @cwdkit/thread-cwd's kernel mode (a worker's own fs_struct, a real
// fchdir(2) on its thread), from this package's addon. Never throws at load: where no addon loads, or off Linux,
// `kernel()` answers why, and thread-cwd keeps its handle cover.
import { type Binding, load } from './loader.js';

export interface Kernel {
  /** 0 when unshare(CLONE_FS) is allowed here (tried once per process, on a thread of its own), else its errno. */
  probeUnshare(): number;
  /**
   * Gives the calling thread an fs_struct (cwd, root, umask) of its own: 0 or an errno. libuv's threadpool is started
   * first, so that it keeps sharing the process's (trap 16). Node's own threads this thread starts afterwards (a
   * Worker's) share its copy; those of every library loaded in the process share the process's (routeThreadStarts).
   * With `executable`, the executable's own later thread starts from such a thread share the process's too, from now
   * on, in every thread (Bun: its work pool grows from whichever thread schedules work).
   */
  unshareFs(executable?: boolean): number;
  /**
   * For a thread whose fs_struct is its own, after it loads a library: that library's later pthread_create calls
   * from such a thread make their thread share the process's fs_struct, not the caller's copy (unshareFs() does this
   * for the libraries loaded before it). Native code's own threads then use the process cwd, as libuv's pool does.
   * The number of call sites routed now.
   */
  routeThreadStarts(): number;
  /**
   * The calling thread's umask set to `mask`, or without one to the process's now, for a thread whose fs_struct is
   * its own (its copy keeps the umask of its unshare): the one before, or a negative errno. The process's is read
   * under Node's own umask mutex, so another thread's process.umask() read (0, then back) is never what it takes.
   */
  umask(mask?: number): number;
  /** fchdir(2) on the calling thread: 0 or an errno. */
  fchdir(fd: number): number;
}

let found: Kernel | Error | undefined;

/** The kernel calls, or the reason there are none (the addon's load error, or a platform without them). */
export function kernel(): Kernel | Error {
  if (found !== undefined) return found;
  let binding: Binding;
  try {
    binding = load();
  } catch (error) {
    found = error instanceof Error ? error : new Error(String(error));
    return found;
  }
  const { probeUnshare, unshareFs, routeThreadStarts, umask, fchdir } = binding;
  found =
    probeUnshare && unshareFs && routeThreadStarts && umask && fchdir
      ? { probeUnshare, unshareFs, routeThreadStarts, umask, fchdir }
      : new Error(`@cwdkit/native: a thread's own fs_struct is a Linux call (this is ${process.platform})`);
  return found;
}
