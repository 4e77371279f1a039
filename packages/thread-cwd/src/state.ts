import fs from 'node:fs';
import { threadState } from '@cwdkit/core';

/** A worker's own working directory, as the kernel would hold it. */
export interface Own {
  /** The physical path (realpath at chdir time), as getcwd reports it: what process.cwd() returns. */
  path: string;
  /** Its exact bytes (a name that is not UTF-8 survives only here). */
  readonly bytes: Buffer;
  /**
   * `path + '/'` (just '/' at the root): the join of a relative path, as given (trap 11). Once the directory is no
   * longer at its path, the handle's `/proc/self/fd/N/` instead.
   */
  prefix: string;
  prefixBytes: Buffer;
  /** Whether `prefix` spells `prefixBytes` exactly; if not, string paths are joined as bytes. */
  utf8: boolean;
  /** The directory's identity at chdir time: a deleted or replaced directory is noticed by it (trap 13). */
  readonly dev: number;
  readonly ino: number;
  /** A handle on the directory (O_PATH): the kernel's way to it, wherever it went. */
  readonly fd: number;
  /** Set once the directory is found gone: cwd() throws ENOENT as uv_cwd does. */
  dead: boolean;
  /** Its path is longer than PATH_MAX: cwd() throws ERANGE as uv_cwd does, and `path` and `bytes` are empty. */
  readonly nameless: boolean;
}

interface ThreadState {
  /** This thread's own cwd; undefined while the thread follows the process cwd (it never chdir'd). */
  own: Own | undefined;
  /** Whether a thread-cwd provider is installed on this thread (close() of another leaves its cwd alone). */
  installed?: boolean;
  /** How many of this thread's providers are open: the last one closed (none installed) drops the thread's cwd. */
  open?: number;
}

/** One per thread, shared by every provider and by the ESM and CJS copies of this package. */
export const state = threadState<ThreadState>('thread-cwd.v1', () => ({
  own: undefined,
}));

// The originals, taken before install() can cover them (trap 7).
const { fstatSync, readlinkSync, statSync } = fs;

const SLASH = 47;
/** Linux's PATH_MAX: the longest path (with its NUL) a system call takes. */
export const PATH_MAX = 4096;

/**
 * `bytes` undefined: a directory whose path is longer than PATH_MAX (reached by relative chdirs), which getcwd cannot
 * name either: process.cwd() throws ERANGE, and relative paths go through the handle from the start.
 */
export function makeOwn(bytes: Buffer | undefined, dev: number, ino: number, fd: number): Own {
  if (bytes === undefined) {
    const prefix = `${handlePath(fd)}/`;
    return {
      path: '',
      bytes: Buffer.alloc(0),
      prefix,
      prefixBytes: Buffer.from(prefix),
      utf8: true,
      dev,
      ino,
      fd,
      dead: false,
      nameless: true,
    };
  }
  const path = bytes.toString();
  const prefix = path === '/' ? '/' : `${path}/`;
  return {
    path,
    bytes,
    prefix,
    prefixBytes: path === '/' ? Buffer.from('/') : Buffer.concat([bytes, Buffer.from('/')]),
    utf8: Buffer.from(prefix).equals(path === '/' ? Buffer.from('/') : Buffer.concat([bytes, Buffer.from('/')])),
    dev,
    ino,
    fd,
    dead: false,
    nameless: false,
  };
}

/**
 * The path the OS must be given for `value` in a thread whose cwd is `own`: a relative string or Buffer joined as
 * given (never normalised: `link/../x` is the kernel's to walk); anything else (absolute, URL, fd, '') unchanged.
 * A string 'file:x' is a relative path, as it is to fs. One with a NUL byte is left as given too: the runtime refuses
 * it before it reaches the OS, and its error then names the argument as the user wrote it.
 */
export function toOs(own: Own, value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length === 0 || value.charCodeAt(0) === SLASH || value.includes('\0')) return value;
    if (own.utf8) {
      const joined = own.prefix + value;
      return joined.length * 3 < PATH_MAX || Buffer.byteLength(joined) < PATH_MAX ? joined : viaHandle(own, value);
    }
    const joined = Buffer.concat([own.prefixBytes, Buffer.from(value)]);
    return joined.length < PATH_MAX ? joined : viaHandle(own, value);
  }
  if (value instanceof Uint8Array) {
    if (value.length === 0 || value[0] === SLASH || value.includes(0)) return value;
    const joined = Buffer.concat([own.prefixBytes, value]);
    return joined.length < PATH_MAX ? joined : viaHandle(own, value);
  }
  return value;
}

/**
 * A relative path whose join would pass PATH_MAX (the kernel walks a relative one from the cwd, with no such limit):
 * joined to the directory's handle instead, as `string | Buffer` like the join it replaces.
 */
export function viaHandle(own: Own, value: string | Uint8Array): string | Buffer {
  const prefix = `${handlePath(own.fd)}/`;
  return typeof value === 'string' ? prefix + value : Buffer.concat([Buffer.from(prefix), value]);
}

/** The directory's handle, as a path the kernel walks from the directory itself, wherever it now is. */
export const handlePath = (fd: number): string => `/proc/self/fd/${fd}`;

/**
 * Whether this thread's directory still sits at its path (trap 13); if not (deleted, moved, replaced), relative
 * paths go through its handle from now on, as the kernel's would, and cwd() follows a move or throws ENOENT once it
 * is deleted. Returns whether anything changed. Called by invalidate(), before a recursive mkdir, and when a
 * covered call fails with ENOENT or ENOTDIR: never on the fast path.
 */
export function verify(own: Own): boolean {
  if (own.prefix.startsWith('/proc/')) return false;
  try {
    const now = statSync(own.bytes);
    if (now.dev === own.dev && now.ino === own.ino) return false;
  } catch {}
  own.prefix = `${handlePath(own.fd)}/`;
  own.prefixBytes = Buffer.from(own.prefix);
  own.utf8 = true;
  own.dead = fstatSync(own.fd).nlink === 0;
  if (!own.dead) own.path = readlinkSync(handlePath(own.fd));
  return true;
}
