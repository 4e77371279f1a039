import { threadState } from '@cwdkit/core';

const fs = process.getBuiltinModule('node:fs');

/** A worker's own working directory, as the kernel would hold it. */
export interface Own {
  /** The physical path (realpath at chdir time, or where a move took it), as getcwd reports it: process.cwd(). */
  path: string;
  /** Its exact bytes (a name that is not UTF-8 survives only here). */
  bytes: Buffer;
  /**
   * `/proc/<pid>/fd/N/`: what a relative path is joined to, as given (trap 11). The kernel walks it from the directory
   * itself, wherever it is now, as it walks a relative path from a real cwd: a moved, deleted or replaced directory
   * is reached by every call, with no check of ours (trap 13). A path would cost ~1 µs less and give wrong answers.
   */
  readonly prefix: string;
  readonly prefixBytes: Buffer;
  /** Whether `path` spells `bytes` exactly; if not, cwd() throws EILSEQ as every strategy does. */
  utf8: boolean;
  /** The directory's identity at chdir time: a move is noticed by it (verify). */
  readonly dev: number;
  readonly ino: number;
  /** A handle on the directory (O_PATH): the kernel's way to it, wherever it went. */
  readonly fd: number;
  /** Set once the directory is found gone: cwd() throws ENOENT as uv_cwd does. */
  dead: boolean;
  /**
   * What cwd() answers until the next chdir (or invalidate()): unset after one, then the path at its first call. As
   * Node's process.cwd(), which asks getcwd at its first call after a chdir and caches that: a move in between shows.
   */
  answer: string | undefined;
  /** Its path is longer than PATH_MAX: cwd() throws ERANGE as uv_cwd does, and `path` and `bytes` are empty. */
  readonly nameless: boolean;
  /**
   * What may still walk `prefix` (an async call in flight, a watcher, a disposable's remove, a new worker): while any
   * does, the handle stays open, even after the thread moved on. Closed early, the path would walk a closed fd
   * (ENOENT) or one reused since (another directory: the worst wrong answer).
   */
  uses: number;
  /** No longer the thread's cwd (a chdir since, or uninstall): its handle is closed once `uses` drops to 0. */
  retired: boolean;
}

interface ThreadState {
  /** This thread's own cwd; undefined while the thread follows the process cwd (it never chdir'd). */
  own: Own | undefined;
  /** Whether a thread-cwd provider is installed on this thread (close() of another leaves its cwd alone). */
  installed?: boolean;
  /** How many of this thread's providers are open: the last one closed (none installed) drops the thread's cwd. */
  open?: number;
  /** Kernel mode: unshare(CLONE_FS) ran on this thread, so its fs_struct is its own (it cannot be undone). */
  unshared?: boolean;
  /**
   * Kernel mode: the covers of a thread whose fs_struct is its own, kept at uninstall() (it stays in a directory of its
   * own, through them: index.ts, pin), and taken back by the next install().
   */
  kept?: { readonly undo: () => void; readonly undoWorkers: () => void };
  /** Kernel mode: where uninstall() leaves this thread, the process cwd of its first one (index.ts, pin). */
  pinned?: Own;
  /** Kernel mode: the thread's kernel cwd is `own`'s directory, so calls that run on this thread need no join. */
  kernel?: boolean;
  /** Whether the main thread's install() said that workers cannot have a cwd of their own here (index.ts). */
  warnedProcessScope?: boolean;
}

/** One per thread, shared by every provider and by the ESM and CJS copies of this package. */
export const state = threadState<ThreadState>('thread-cwd.v1', () => ({
  own: undefined,
}));

/**
 * The fs functions this package calls itself, as they were before install() could cover them (trap 7). Shared through
 * core's threadState, so a CJS copy loaded after the ESM copy covered fs (or the other way) takes the same originals.
 */
export const fsOriginals = threadState('thread-cwd.fs.v1', () => {
  const { closeSync, fstatSync, openSync, readdirSync, readlinkSync, statSync } = fs;
  return Object.freeze({ closeSync, fstatSync, openSync, readdirSync, readlinkSync, statSync });
});
const { closeSync, fstatSync, readlinkSync, statSync } = fsOriginals;

const SLASH = 47;

/**
 * `bytes` undefined: a directory whose path is longer than PATH_MAX (reached by relative chdirs), which getcwd cannot
 * name either: process.cwd() throws ERANGE.
 */
export function makeOwn(bytes: Buffer | undefined, dev: number, ino: number, fd: number): Own {
  const prefix = `${handlePath(fd)}/`;
  const path = bytes === undefined ? '' : bytes.toString();
  return {
    path,
    bytes: bytes ?? Buffer.alloc(0),
    prefix,
    prefixBytes: Buffer.from(prefix),
    utf8: bytes === undefined || Buffer.from(path).equals(bytes),
    dev,
    ino,
    fd,
    dead: false,
    answer: undefined,
    nameless: bytes === undefined,
    uses: 0,
    retired: false,
  };
}

/** One more user of `own`'s handle; the function returned ends that use (once, however often it is called). */
export function hold(own: Own): () => void {
  own.uses++;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--own.uses === 0 && own.retired) closeSync(own.fd);
  };
}

/** `own` is no longer the thread's cwd: its handle is closed now, or when its last user is done (see `uses`). */
export function retire(own: Own): void {
  own.retired = true;
  if (own.uses === 0) closeSync(own.fd);
}

/**
 * The path the OS must be given for `value` in a thread whose cwd is `own`: a relative string or Buffer joined as
 * given (never normalised: `link/../x` is the kernel's to walk); anything else (absolute, URL, fd, '') unchanged.
 * A string 'file:x' is a relative path, as it is to fs. One with a NUL byte is left as given too: the runtime refuses
 * it before it reaches the OS, and its error then names the argument as the user wrote it.
 */
export function toOs(own: Joins, value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length === 0 || value.charCodeAt(0) === SLASH || value.includes('\0')) return value;
    return own.prefix + value;
  }
  if (value instanceof Uint8Array) {
    if (value.length === 0 || value[0] === SLASH || value.includes(0)) return value;
    return Buffer.concat([own.prefixBytes, value]);
  }
  return value;
}

/** What a relative path is joined to: a thread's handle (an Own), or the directory's path (cp, see cover.ts). */
export type Joins = Pick<Own, 'prefix' | 'prefixBytes'>;

/** A relative path joined to the directory's handle, as `string | Buffer` (a child's cwd, a chdir). */
export function viaHandle(own: Own, value: string | Uint8Array): string | Buffer {
  return typeof value === 'string' ? own.prefix + value : Buffer.concat([own.prefixBytes, value]);
}

/** The directory's handle, as a path the kernel walks from the directory itself, wherever it now is. */
export function handlePath(fd: number): string {
  procSelf ??= ownProc();
  return `${procSelf}/fd/${fd}`;
}

/** The link to the process cwd (the main thread's, which never unshares). */
export function processCwdLink(): string {
  procSelf ??= ownProc();
  return `${procSelf}/cwd`;
}

let procSelf: string | undefined;

/**
 * This process's folder in /proc: `/proc/<pid>` where /proc shows this pid namespace (measured ~0.4 µs less per call
 * than `/proc/self`, a link the kernel spells anew at each walk), else `/proc/self`. Asked once, at the first chdir.
 */
function ownProc(): string {
  try {
    if (readlinkSync('/proc/self') === String(process.pid)) return `/proc/${process.pid}`;
  } catch {}
  return '/proc/self';
}

/**
 * Whether this thread's directory still sits at its path (trap 13); if not, cwd() follows a move (getcwd would) or
 * throws ENOENT once it is deleted. Returns whether anything changed. Relative paths need none of this (they go
 * through the handle): called by invalidate(), before a recursive mkdir and a child's start, never on the fast path.
 */
export function verify(own: Own): boolean {
  if (own.dead) return false;
  if (!own.nameless) {
    try {
      const now = statSync(own.bytes);
      if (now.dev === own.dev && now.ino === own.ino) return false;
    } catch {}
  }
  own.dead = fstatSync(own.fd).nlink === 0;
  if (own.dead || own.nameless) return own.dead;
  own.bytes = readlinkSync(handlePath(own.fd), { encoding: 'buffer' });
  own.path = own.bytes.toString();
  own.utf8 = Buffer.from(own.path).equals(own.bytes);
  return true;
}
