// What follows a worker's own cwd once it chdir'd: every path-taking function of node:fs, node:fs/promises and
// node:child_process, process.loadEnvFile and process.dlopen (trap 14). Patched in that thread only; the tables are
// data, so the enumeration test can hold them against what the running Node exports.
import { codedError, hasCode, syncBuiltinExports } from '@cwdkit/core';
import { bun, coverBun } from './bun.js';
import { type Fn, patcher } from './patch.js';
import { earlyNames, named, type Route, routes } from './routes.js';
import { handlePath, hold, type Joins, type Own, state, toOs, verify } from './state.js';
import {
  bunSurface,
  type Covered,
  coveredFunctions,
  hostOf,
  type Kind,
  kernelSurface,
  onThread,
  type Returns,
  type Spec,
} from './surface.js';

const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

/**
 * node:child_process and node:net, taken when they are needed (cover() in a worker, enumerate()), never at load: the
 * main thread loads this file but needs neither, and they cost Node's start-up ~1 ms (issue #21).
 */
const childProcess = () => process.getBuiltinModule('node:child_process');
const net = () => process.getBuiltinModule('node:net');

/**
 * The reviewed rest: each exported function that takes no path, or reaches the OS through something covered here
 * (then it says what), with the reason. A function in neither list fails the enumeration test and warns at run time.
 */
export const takesNoPath: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    ['close', 'fchown', 'fchmod', 'fdatasync', 'fstat', 'fsync', 'ftruncate', 'futimes', 'read', 'readv', 'write']
      .concat(['writev'])
      .flatMap((name) => [`fs.${name}`, `fs.${name}Sync`])
      .map((name) => [name, 'takes a file descriptor']),
  ),
  // Bun's fs/promises exports fd forms too.
  ...Object.fromEntries(
    ['close', 'fchmod', 'fchown', 'fdatasync', 'fstat', 'fsync', 'ftruncate', 'futimes', 'read', 'readv', 'write']
      .concat(['writev'])
      .map((name) => [`fs/promises.${name}`, 'takes a file descriptor (Bun)']),
  ),
  'fs.realpath': 'resolves with path.resolve, which reads the installed process.cwd()',
  'fs.realpathSync': 'resolves with path.resolve, which reads the installed process.cwd()',
  'fs.watchFile': 'resolves with path.resolve, which reads the installed process.cwd()',
  'fs.unwatchFile': 'resolves with path.resolve, which reads the installed process.cwd()',
  'fs.glob': 'its default cwd is process.cwd(), a relative options.cwd goes through path.resolve',
  'fs.globSync': 'its default cwd is process.cwd(), a relative options.cwd goes through path.resolve',
  'fs/promises.glob': 'its default cwd is process.cwd(), a relative options.cwd goes through path.resolve',
  'fs.createReadStream': 'opens through fs.open, which is covered',
  'fs.createWriteStream': 'opens through fs.open, which is covered',
  'fs.ReadStream': 'opens through fs.open, which is covered',
  'fs.WriteStream': 'opens through fs.open, which is covered',
  'fs.FileReadStream': 'opens through fs.open, which is covered',
  'fs.FileWriteStream': 'opens through fs.open, which is covered',
  'fs.Utf8Stream': 'opens its dest through fs.open / fs.openSync, which are covered',
  'fs.Dirent': 'a class: what readdir and opendir return (their parentPath is fixed there)',
  'fs.Stats': 'a class',
  'fs.Dir': 'a class: what opendir returns (covered)',
  'fs._toUnixTimestamp': 'converts a time',
  'child_process.ChildProcess': 'a class: its prototype.spawn is covered (spawn, exec, execFile and fork reach it)',
  'child_process.spawn': 'reaches ChildProcess.prototype.spawn, which is covered',
  'child_process.exec': 'reaches ChildProcess.prototype.spawn, which is covered',
  'child_process.execFile': 'reaches ChildProcess.prototype.spawn, which is covered',
  'child_process.fork': 'reaches ChildProcess.prototype.spawn, which is covered',
  'child_process._forkChild': 'takes a file descriptor (the IPC channel of a forked child)',
};

export interface Enumerated {
  readonly name: string;
  readonly fn: unknown;
}

/**
 * Every function node:fs, fs.promises (=== node:fs/promises) and node:child_process export, by qualified name; in
 * kernel mode not node:child_process's, which all run on the calling thread. Without `accessors`, a property behind a
 * getter is not read: Node's lazy ones (fs.ReadStream and the other stream classes) load a module when read
 * (internal/fs/streams, ~0.5 ms of a worker's first chdir), and the streams they make open through fs.open.
 */
export function enumerate(kernel = false, accessors = true): Enumerated[] {
  const list: Enumerated[] = [];
  const modules = [
    ['fs', fs],
    ['fs/promises', fs.promises],
  ] as [string, object][];
  if (!kernel) modules.push(['child_process', childProcess()]);
  for (const [prefix, exported] of modules) {
    for (const name of Object.keys(exported)) {
      if (!accessors && typeof Object.getOwnPropertyDescriptor(exported, name)?.get === 'function') continue;
      const fn = (exported as Record<string, unknown>)[name];
      if (typeof fn !== 'function') continue;
      list.push({ name: `${prefix}.${name}`, fn });
      for (const inner of Object.keys(fn)) {
        const nested = (fn as unknown as Record<string, unknown>)[inner];
        if (typeof nested === 'function') list.push({ name: `${prefix}.${name}.${inner}`, fn: nested });
      }
    }
  }
  return list;
}

/** The exported functions that are neither covered nor reviewed: each is a silent use of the real cwd. */
export function uncovered(
  covered: readonly Covered[] = bun ? bunSurface() : coveredFunctions,
  reviewed: Readonly<Record<string, string>> = takesNoPath,
  found: readonly Enumerated[] = enumerate(),
): string[] {
  const known = new Set([...covered.map((entry) => `${entry.module}.${entry.name}`), ...Object.keys(reviewed)]);
  return found.map((entry) => entry.name).filter((name) => !known.has(name));
}

/** A real chdir's spelling of `value`, which the OS got joined to `own` (stripped back only where it was joined). */
function strip(own: Joins, value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(own.prefix) ? value.slice(own.prefix.length) : value;
  if (Buffer.isBuffer(value) && value.subarray(0, own.prefixBytes.length).equals(own.prefixBytes)) {
    return value.subarray(own.prefixBytes.length);
  }
  return value;
}

/** A dirent's parentPath (and Node 20-22's `path`), a string or a Buffer (a Buffer path was given), as asked. */
function fixDirent(own: Own, dirent: unknown): void {
  const entry = dirent as { parentPath?: unknown; path?: unknown } | null;
  if (!entry || typeof entry !== 'object') return;
  if (entry.parentPath !== undefined) entry.parentPath = strip(own, entry.parentPath);
  if (Object.hasOwn(entry, 'path') && entry.path !== undefined) entry.path = strip(own, entry.path);
}

interface DirLike {
  read(...args: unknown[]): unknown;
  readSync(): unknown;
  close(...args: unknown[]): unknown;
  closeSync(): unknown;
  entries?(): AsyncIterableIterator<unknown>;
  [Symbol.asyncIterator](): AsyncIterableIterator<unknown>;
  [Symbol.dispose]?(): void;
  [Symbol.asyncDispose]?(): Promise<void>;
}

/**
 * A Dir whose `path` and dirents say what was asked for, as after a real chdir, and which holds `own`'s handle until
 * it is closed (closeSync, close, a dispose, the end of an async iteration) or garbage-collected: a recursive Dir
 * opens each subfolder by its joined path as it reaches it, which a closed handle's reused fd would make another's.
 */
function fixDir(own: Own, dir: DirLike, asked: unknown): DirLike {
  Object.defineProperty(dir, 'path', { value: asked, configurable: true });
  const done = hold(own);
  unreachable.register(dir, done);
  const { read, readSync, close, closeSync } = dir;
  const entries = dir.entries ?? dir[Symbol.asyncIterator]; // Bun's Dir has no entries()
  const asyncDispose = dir[Symbol.asyncDispose]; // fs's [Symbol.dispose] calls closeSync, wrapped here
  dir.closeSync = () => {
    try {
      closeSync.call(dir);
    } catch (error) {
      if (hasCode(error) && error.code === 'ERR_DIR_CLOSED') done(); // not ERR_DIR_CONCURRENT_OPERATION: still open
      throw error;
    }
    done();
  };
  dir.close = (...args: unknown[]) => {
    const callback = args[0];
    if (typeof callback !== 'function') return (close.call(dir, ...args) as Promise<unknown>).finally(done);
    return close.call(dir, (error: unknown) => {
      done();
      callback(error);
    });
  };
  if (asyncDispose) dir[Symbol.asyncDispose] = () => asyncDispose.call(dir).finally(done);
  // A read's error (a recursive Dir's subfolder it could not open) names its joined path: spelled as asked too.
  const failed = (error: unknown) => fixError(error, own);
  dir.readSync = () => {
    let dirent: unknown;
    try {
      dirent = readSync.call(dir);
    } catch (error) {
      throw failed(error);
    }
    fixDirent(own, dirent);
    return dirent;
  };
  dir.read = (...args: unknown[]) => {
    const callback = args[0];
    if (typeof callback === 'function') {
      return read.call(dir, (error: unknown, dirent: unknown) => {
        fixDirent(own, dirent);
        callback(failed(error), dirent);
      });
    }
    return (read.call(dir) as Promise<unknown>).then(
      (dirent) => {
        fixDirent(own, dirent);
        return dirent;
      },
      (error: unknown) => {
        throw failed(error);
      },
    );
  };
  const iterate = async function* () {
    try {
      for await (const dirent of entries.call(dir)) {
        fixDirent(own, dirent);
        yield dirent;
      }
    } catch (error) {
      throw failed(error);
    } finally {
      done(); // fs's entries() closed the Dir
    }
  };
  dir.entries = iterate;
  dir[Symbol.asyncIterator] = iterate;
  return dir;
}

function fixResult(own: Own, returns: Returns | undefined, result: unknown, asked: unknown): unknown {
  switch (returns) {
    case undefined:
      return result;
    case 'path':
      return strip(own, result);
    case 'dirents':
      if (Array.isArray(result)) for (const dirent of result) fixDirent(own, dirent);
      return result;
    case 'dir':
      return result && typeof result === 'object' ? fixDir(own, result as DirLike, asked) : result;
    case 'file': // a BunFile's name is the path as asked
      if (result && typeof result === 'object')
        Object.defineProperty(result, 'name', { value: asked, configurable: true });
      return result;
    case 'disposable':
      if (result && typeof result === 'object') {
        const disposable = result as { path?: unknown };
        disposable.path = strip(own, disposable.path);
        holdUntilRemoved(own, result as Disposable);
      }
      return result;
  }
}

interface Disposable {
  remove(): unknown;
  [Symbol.dispose]?(): void;
  [Symbol.asyncDispose]?(): Promise<void>;
}

/** A disposable's remove(), or a watch generator, become unreachable: nothing can walk their path any more. */
const unreachable = new FinalizationRegistry<() => void>((done) => done());

/**
 * A mkdtempDisposable(Sync)'s remove() and dispose walk the full path Node stashed at creation, joined to `own`'s
 * handle: it is held until a remove succeeds, or until nothing can call one (the disposable garbage-collected).
 */
function holdUntilRemoved(own: Own, disposable: Disposable): void {
  const done = hold(own);
  const original = disposable.remove;
  const remove = function (this: unknown): unknown {
    const result = original.call(this);
    if (result instanceof Promise) {
      return result.then((value) => {
        done();
        return value;
      });
    }
    done();
    return result;
  };
  disposable.remove = remove;
  if (typeof disposable[Symbol.dispose] === 'function') disposable[Symbol.dispose] = () => void remove();
  if (typeof disposable[Symbol.asyncDispose] === 'function') {
    disposable[Symbol.asyncDispose] = async () => void (await remove());
  }
  unreachable.register(remove, done); // remove is reachable while the disposable, or its dispose, is
}

/**
 * `own`'s handle held for as long as `keeps` says `result` may walk it; called before the call's own hold ends, so a
 * handle retired in between stays open.
 */
function keep(own: Own, keeps: Spec['keeps'], result: unknown): void {
  if (keeps === 'watcher') (result as { once(event: string, listener: () => void): unknown }).once('close', hold(own));
  else if (keeps === 'blob' && result instanceof Blob) keepBlob(own, result);
}

/**
 * A Blob from openAsBlob opens its file by its joined path at each read, when the read starts (a stream: at its first
 * pull, maybe after the Blob itself was collected), and so does each slice of it: held until the Blob is collected,
 * and, from each call of these methods, until the slice, or the stream, is collected, or the promise settles. A Blob
 * made from it (`new Blob([blob])`, a File, a structured clone) is not seen: read after the original was collected, it
 * walks a closed handle (NotReadableError) or a reused fd (Node's size and mtime check then stands).
 */
// A BunFile has more that reads or writes its path (json, stat, write, delete...).
const blobMethods = ['slice', 'stream', 'text', 'arrayBuffer', 'bytes', 'json', 'formData', 'exists', 'stat'].concat([
  'write',
  'writer',
  'delete',
  'unlink',
]);
function keepBlob(own: Own, blob: Blob): void {
  unreachable.register(blob, hold(own));
  for (const name of blobMethods) {
    const method = (blob as unknown as Record<string, unknown>)[name];
    if (typeof method !== 'function') continue; // bytes(): Node 22+; json() and the rest: a BunFile's
    Object.defineProperty(blob, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]): unknown {
        const done = hold(own);
        let result: unknown;
        try {
          result = method.apply(this, args);
        } catch (error) {
          done();
          throw fixError(error, own);
        }
        if (result instanceof Promise) {
          return result.then(
            (value) => {
              done();
              return value;
            },
            (error: unknown) => {
              done();
              throw fixError(error, own); // a read's error names the path as asked (Bun's does name it)
            },
          );
        }
        if (result instanceof Blob) {
          keepBlob(own, result);
          done();
        } else if (result !== null && typeof result === 'object') unreachable.register(result, done);
        else done();
        return result;
      },
    });
  }
}

/**
 * The error a real chdir would have given: in its message, stack, `path` and `dest` (and a SystemError's `info`),
 * every path joined to the handle (quoted or not: cp's and rm's messages name paths bare, and paths below the one
 * given) with `/proc/<pid>/fd/N/` taken off, so that nothing a caller sees names the handle. `given` (cp's, joined to
 * the directory's path) pairs each path it was given with the one asked: that path and those below it are spelled
 * as asked, where other absolute paths cp names (a link's resolved target) stay as they are.
 */
function fixError(error: unknown, own: Own, given?: readonly (readonly [string, string])[]): unknown {
  if (!(error instanceof Error)) return error;
  const unjoin = (value: string) => {
    for (const [asked, joined] of given ?? []) {
      value = value.replace(below(joined), () => asked);
    }
    return value.replaceAll(own.prefix, '');
  };
  const fix = (record: Record<string, unknown>, keys: readonly string[]) => {
    for (const key of keys) {
      const value = record[key];
      if (typeof value !== 'string') continue;
      const fixed = unjoin(value);
      if (fixed !== value) record[key] = fixed;
    }
  };
  const record = error as unknown as Record<string, unknown>;
  const message = record.message;
  fix(record, ['message', 'path', 'dest']);
  if (record.message !== message) fix(record, ['stack']); // read only then: V8 formats a stack at its first read
  const info = record.info;
  if (info !== null && typeof info === 'object') fix(info as Record<string, unknown>, ['message', 'path', 'dest']);
  return error;
}

/** `name` where it is a whole path or the start of one below it. */
const below = (name: string) => new RegExp(`${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?=$|[/\\s'",):;])`, 'g');

/** cp's (asked, given) for each path joined to the directory's path: what fixError spells back. */
function givenOf(paths: readonly number[], args: unknown[], joined: unknown[]): [string, string][] {
  const pairs: [string, string][] = [];
  const text = (value: unknown) => (typeof value === 'string' ? value : String(value));
  for (const index of paths) if (joined[index] !== args[index]) pairs.push([text(args[index]), text(joined[index])]);
  return pairs;
}

/** `args` with each relative path joined to `joins` (a copy), or `args` itself when none is relative. */
function join(joins: Joins, paths: readonly number[], args: unknown[]): unknown[] {
  let joined = args;
  for (const index of paths) {
    const given = toOs(joins, args[index]);
    if (given === args[index]) continue;
    if (joined === args) joined = args.slice();
    joined[index] = given;
  }
  return joined;
}

/**
 * What cp is given for a relative path: the directory's path, where the directory still is (verify) and has one (not
 * deleted, not past PATH_MAX, UTF-8); else its handle (a deleted one holds nothing to copy or to copy into). A move
 * of the directory while cp runs is not followed (it is, through the handle, by every other call).
 */
function byPath(own: Own): Joins {
  verify(own);
  if (own.dead || own.nameless || !own.utf8) return own;
  const prefix = own.path.endsWith('/') ? own.path : `${own.path}/`;
  return { prefix, prefixBytes: Buffer.from(prefix) };
}

/** cp's join: to the directory's path, with its filter's arguments spelled as asked. */
function joinCp(own: Own, paths: readonly number[], args: unknown[]): unknown[] {
  const joins = byPath(own);
  const joined = join(joins, paths, args);
  if (joined !== args) withFilter(args, joined);
  return joined;
}

/** cp's options (at 2) with a filter called as a real chdir's: each source and destination relative, as given. */
function withFilter(args: unknown[], joined: unknown[]): void {
  const options = joined[2] as { filter?: unknown } | null | undefined;
  const filter = options?.filter;
  if (typeof filter !== 'function') return;
  // cp calls it with what it was given, then with path.join(that, name) below it: joined to what was asked, as cp's.
  const asGiven = (value: unknown, index: number) => {
    const given = joined[index];
    if (given === args[index] || typeof value !== 'string') return value; // not joined: as it was
    if (value === given) return args[index];
    return path.join(String(args[index]), path.relative(path.normalize(String(given)), value));
  };
  joined[2] = {
    ...options,
    filter(this: unknown, source: unknown, destination: unknown) {
      return filter.call(this, asGiven(source, 0), asGiven(destination, 1));
    },
  };
}

/**
 * `original` with its path arguments relative to this thread's cwd (through its handle, so wherever the directory
 * went), and its answers spelled as a real chdir's. The fast path allocates one copy of the arguments.
 */
function wrap(original: Fn, kind: Kind, spec: Spec): Fn {
  if (kind === 'iterator') return named(iterate(original, spec), original);
  const { returns, creates, paths, keeps } = spec;
  // Chosen here, not per call: with cp's branches in the wrapper, a relative statSync cost ~95 instructions more
  // (callgrind, Node 24, 40,000 calls, ~6,870 each); as it is, ~8.
  const cp = spec.byPath === true;
  const joinArgs = cp ? joinCp : join;
  // The error a real chdir would have given (cp's joins spelled back too).
  const failed = (error: unknown, own: Own, args: unknown[], joined: unknown[]): unknown =>
    fixError(error, own, cp ? givenOf(paths, args, joined) : undefined);
  const asked = paths[0] as number;
  const covered = function (this: unknown, ...args: unknown[]): unknown {
    const own = state.own as Own;
    // A deleted directory takes no new entry: the kernel's ENOENT, where a recursive mkdir would loop on the handle.
    // Only a valid recursive mkdir of a relative path: anything else is fs's own to check and do.
    if (creates && (args[1] as { recursive?: unknown } | null)?.recursive === true && toOs(own, args[0]) !== args[0]) {
      verify(own);
      if (own.dead) args = [args[0], { ...(args[1] as object), recursive: false }, ...args.slice(2)];
    }
    const joined = joinArgs(own, paths, args);
    if (joined === args) return original.apply(this, args); // nothing relative: the call as it was
    if (kind === 'sync') {
      try {
        const result = original.apply(this, joined);
        if (keeps !== undefined) keep(own, keeps, result);
        return returns === undefined ? result : fixResult(own, returns, result, args[asked]);
      } catch (error) {
        throw failed(error, own, args, joined);
      }
    }
    const last = joined.length - 1;
    const callback = joined[last] as Fn;
    if (kind === 'callback' && typeof callback !== 'function') return original.apply(this, joined); // fs's error
    // In flight on libuv's threadpool, it walks the handle after this returns: held until it settles (Own.uses).
    const done = hold(own);
    if (kind === 'promise') {
      let promise: Promise<unknown>;
      try {
        promise = original.apply(this, joined) as Promise<unknown>;
      } catch (error) {
        done();
        throw failed(error, own, args, joined);
      }
      return promise.then(
        (result) => {
          try {
            if (keeps !== undefined) keep(own, keeps, result);
            return fixResult(own, returns, result, args[asked]);
          } finally {
            done(); // after what the result holds (a Dir, a Blob): the handle may be retired since the call
          }
        },
        (error: unknown) => {
          done();
          throw failed(error, own, args, joined);
        },
      );
    }
    joined[last] = function (this: unknown, error: unknown, ...rest: unknown[]): void {
      if (error instanceof Error) {
        done();
        return void callback.call(this, failed(error, own, args, joined));
      }
      if (rest.length > 0) rest[0] = fixResult(own, returns, rest[0], args[asked]);
      done(); // after what the result holds (a Dir)
      callback.call(this, error, ...rest);
    };
    try {
      return original.apply(this, joined);
    } catch (error) {
      done();
      throw failed(error, own, args, joined);
    }
  };
  // Forwarding `arguments` untouched is V8's fast path (no array is made): a thread that never chdir'd pays one
  // check. Counted with callgrind (statSync, Node 24): +91 instructions on ~4,500, where a rest parameter here cost 421.
  // In kernel mode a call that runs on this thread and returns nothing that walks the path later is the call as it
  // was: the kernel resolves it against the thread's own cwd.
  const wrapped = onThread(kind, spec)
    ? function (this: unknown): unknown {
        const call = state.own === undefined || state.kernel ? original : covered;
        // biome-ignore lint/complexity/noArguments: see above
        return call.apply(this, arguments as unknown as unknown[]);
      }
    : function (this: unknown): unknown {
        // biome-ignore lint/complexity/noArguments: see above
        return (state.own === undefined ? original : covered).apply(this, arguments as unknown as unknown[]);
      };
  const result = named(wrapped, original);
  // util.promisify's own form of a callback function (fs.exists's): Bun's calls its original, not the covered one.
  const custom = (original as unknown as Record<symbol, unknown>)[promisifyCustom];
  if (
    kind === 'callback' &&
    typeof custom === 'function' &&
    Object.getOwnPropertyDescriptor(result, promisifyCustom)?.configurable !== false
  ) {
    Object.defineProperty(result, promisifyCustom, { value: wrap(custom as Fn, 'promise', spec), configurable: true });
  }
  return result;
}

const promisifyCustom = Symbol.for('nodejs.util.promisify.custom');

/**
 * fs/promises.watch as a generator of our own: like fs's, it joins its path at the first next() (after any chdir in
 * between, as a real one would), and it holds the handle while it watches: until it ends, is returned, its signal
 * aborts (fs closes its watch then, even while suspended), or nothing can iterate it any more (garbage-collected).
 */
function iterate(original: Fn, { paths }: Spec): Fn {
  return function watch(this: unknown, ...args: unknown[]): AsyncGenerator<unknown> {
    let done: (() => void) | undefined;
    const self = this;
    const generator = (async function* () {
      const own = state.own;
      const joined = own === undefined ? args : join(own, paths, args);
      if (own === undefined || joined === args) return yield* original.apply(self, args) as AsyncGenerator<unknown>;
      done = hold(own);
      const signal = (args[1] as { signal?: unknown } | null)?.signal;
      if (signal instanceof AbortSignal) signal.addEventListener('abort', done, { once: true });
      try {
        return yield* original.apply(self, joined) as AsyncGenerator<unknown>;
      } catch (error) {
        throw fixError(error, own);
      } finally {
        done();
      }
    })();
    unreachable.register(generator, () => done?.());
    return generator;
  } as Fn;
}

/**
 * The cwd a child starts in: this thread's when none is given, a relative one joined to it. A spawn costs
 * milliseconds, so the directory's identity is checked first: a child of a thread whose directory was deleted or moved
 * starts in that very directory (through its handle, which the child holds until it execs), as it would inherit it.
 */
function childCwd(own: Own, cwd: unknown): unknown {
  verify(own);
  // A child's cwd is a string: a deleted directory, or one with no UTF-8 name, is reached through the handle.
  if (cwd === undefined || cwd === null) {
    return own.dead || own.nameless || !own.utf8 ? handlePath(own.fd) : own.path;
  }
  return toOs(own, cwd); // '' stays '': the OS's ENOENT, as a real chdir's child gets
}

/** child_process's sync forms take (file, args?, options?); execSync (command, options?): `options` at `at`. */
function withChildCwd(args: unknown[], at: number): unknown[] {
  const own = state.own;
  if (own === undefined || state.kernel) return args; // kernel mode: the child forks from this thread, in its cwd
  const copy = args.slice();
  const options = copy[at];
  if (options === undefined || options === null) copy[at] = { cwd: childCwd(own, undefined) };
  else if (typeof options === 'object')
    copy[at] = { ...options, cwd: childCwd(own, (options as { cwd?: unknown }).cwd) };
  return copy;
}

const optionsAt = (args: unknown[]) => (Array.isArray(args[1]) || (args[1] == null && args.length > 2) ? 2 : 1);

/** net's isPipeName: a string that is not a port number ('8080', '' and ' 1 ' are ports). */
const isPipeName = (value: unknown): value is string => typeof value === 'string' && !(Number(value) >= 0);

/**
 * A unix socket's path relative to this thread's cwd, joined to its handle (the kernel binds and connects through
 * `/proc/<pid>/fd/N/` as through the directory itself, within the call). In `slots`
 * (the arguments, or net.connect's normalized ones, changed in place) at 0: the path, or options with a `path`.
 * Returns [asked, given], or undefined when there is no relative socket path.
 */
function joinSocket(own: Own, slots: unknown[]): [string, string] | undefined {
  const first = slots[0];
  const asked = first !== null && typeof first === 'object' ? (first as { path?: unknown }).path : first;
  if (!isPipeName(asked)) return undefined;
  const given = toOs(own, asked);
  if (given === asked || typeof given !== 'string') return undefined;
  // sun_path holds 107 bytes: one a real chdir could bind or connect to may not fit once joined (libuv: EINVAL).
  if (Buffer.byteLength(given) > 107 && Buffer.byteLength(asked) <= 107) {
    throw codedError(
      new Error(
        `thread-cwd: the unix socket path '${asked}' is reached through this thread's directory handle ` +
          `('${own.prefix}'), which leaves ${107 - own.prefixBytes.length} of a socket path's 107 bytes: ` +
          'give a shorter relative path, or an absolute one',
      ),
      'ERR_CWDKIT_SOCKET_PATH_TOO_LONG',
    );
  }
  slots[0] = first === asked ? given : { ...(first as object), path: given };
  return [asked, given];
}

/**
 * Until `settled` or 'error', `emitter`'s error (emitted a tick later) names the socket path as it was asked; `failed`
 * is called at that error.
 */
function askedInErrors(emitter: object, [asked, given]: [string, string], settled: string, failed?: () => void): void {
  const target = emitter as { emit: (event: string, ...rest: unknown[]) => boolean };
  const hadOwn = Object.hasOwn(target, 'emit');
  const emit = target.emit;
  target.emit = function (this: unknown, event: string, ...rest: unknown[]): boolean {
    if (event === 'error' || event === settled) {
      if (hadOwn) target.emit = emit;
      else delete (target as { emit?: unknown }).emit;
    }
    const error = rest[0] as (Error & { address?: unknown }) | undefined;
    if (event === 'error') failed?.();
    if (event === 'error' && error instanceof Error) {
      if (error.address === given) error.address = asked;
      error.message = error.message.replaceAll(given, asked);
      if (typeof error.stack === 'string') error.stack = error.stack.replaceAll(given, asked);
    }
    return emit.call(this, event, ...rest);
  };
}

/** Where each covered function lives; a name the running Node does not export is left out. */
function ownerOf(entry: Covered): [object, string] | undefined {
  const owner =
    entry.module === 'fs'
      ? fs
      : entry.module === 'fs/promises'
        ? fs.promises
        : entry.module === 'Bun'
          ? (globalThis as { Bun?: object }).Bun
          : undefined;
  return owner && hostOf(entry, owner);
}

let warned = false;

/** child_process's sync forms, by where their options are: (file, args?, options?); execSync (command, options?). */
const syncForms: Readonly<Record<string, (args: unknown[]) => number>> = {
  spawnSync: optionsAt,
  execFileSync: optionsAt,
  execSync: () => 1,
};

/**
 * Puts the cover in place on this thread and returns its undo (install() in a worker). All or nothing: when one
 * function cannot be replaced (a frozen or read-only property), the ones already replaced are put back first. In
 * kernel mode only what does not run on this thread alone is covered (onThread): the kernel resolves the rest against
 * the thread's own cwd, so node:child_process and node:net are not even loaded (issue #28, a worker's start-up).
 */
export function cover(kernel: boolean): () => void {
  const { replace, undo } = patcher();
  const routed: Route[] = [];
  const undoAll = () => {
    for (const to of routed) to.covered = undefined;
    undo();
  };
  try {
    // The trampolines the setup entry put in place at the worker's start (early.ts) get the covered function, wherever
    // they are now (captured, or moved out of their slot by a spy since restored, or under graceful-fs's wrapper); the
    // slot itself is left as it is: what sits there calls its trampoline.
    const surface = kernel ? kernelSurface(bun) : bun ? bunSurface() : coveredFunctions;
    const early = new Set<string>();
    for (const to of routes().values()) {
      const entry = surface.find(({ module, name }) => module === to.module && name === to.name) as Covered;
      to.covered = wrap(to.original, entry.kind, entry.spec);
      routed.push(to);
      early.add(`${to.module}.${to.name}`);
    }
    for (const entry of surface) {
      if (early.has(`${entry.module}.${entry.name}`)) continue;
      const found = ownerOf(entry);
      if (!found) continue;
      replace(
        found[0],
        found[1],
        (original) => wrap(original, entry.kind, entry.spec),
        `${entry.module}.${entry.name}`,
      );
    }
    if (!kernel) coverOnThread(replace);
    if (bun) coverBun(replace);
  } catch (error) {
    undoAll(); // all or nothing
    throw error;
  }
  syncBuiltinExports(); // named imports of node:fs and friends follow (trap 15)
  // Where the install was deferred, a function a library added to node:fs since (graceful-fs's) is not Node's.
  const known = earlyNames();
  const missed = uncovered(undefined, undefined, enumerate(kernel, false)).filter((found) => {
    const [module, name] = found.split('.') as [string, string];
    return known?.get(module)?.includes(name) ?? true;
  });
  if (missed.length > 0 && !warned) {
    warned = true;
    process.emitWarning(
      `thread-cwd does not cover ${missed.join(', ')}: in a worker that chdir'd, they use the process cwd`,
      { code: 'CWDKIT_THREAD_CWD_UNCOVERED' },
    );
  }
  return undoAll;
}

/** Handles mode: what runs on this thread and takes a path other than as an fs argument (a child's cwd, a socket). */
function coverOnThread(replace: ReturnType<typeof patcher>['replace']): void {
  const { ChildProcess } = childProcess();
  const { Server, Socket } = net();
  replace(
    ChildProcess.prototype,
    'spawn',
    (original) =>
      function spawn(this: unknown, options: unknown) {
        const own = state.own;
        // Kernel mode: libuv forks the child from this thread, which starts in this thread's cwd (a relative cwd too).
        if (own === undefined || state.kernel || options === null || typeof options !== 'object') {
          return original.call(this, options);
        }
        return original.call(this, { ...options, cwd: childCwd(own, (options as { cwd?: unknown }).cwd) });
      },
    'child_process.ChildProcess.prototype.spawn',
  );
  for (const [name, at] of Object.entries(syncForms)) {
    replace(
      childProcess(),
      name,
      (original) =>
        named(function (this: unknown, ...args: unknown[]) {
          return original.apply(this, withChildCwd(args, at(args)));
        }, original),
      `child_process.${name}`,
    );
  }
  replace(
    Server.prototype,
    'listen',
    (original) =>
      function listen(this: unknown, ...args: unknown[]) {
        const own = state.kernel ? undefined : state.own; // kernel mode: bound on this thread, in its cwd
        const joined = own && joinSocket(own, args);
        if (own === undefined || joined === undefined) return original.apply(this, args);
        const server = this as { _pipeName?: unknown; once(event: string, listener: () => void): unknown };
        // libuv unlinks the socket's path (the joined one) when the server closes: held until then, or a failed listen.
        const done = hold(own);
        server.once('close', done);
        askedInErrors(server, joined, 'listening', done);
        let result: unknown;
        try {
          result = original.apply(this, args);
        } catch (error) {
          done();
          throw error;
        }
        if (server._pipeName === joined[1]) server._pipeName = joined[0]; // what address() answers
        return result;
      },
    'net.Server.prototype.listen',
  );
  replace(
    Socket.prototype,
    'connect',
    (original) =>
      function connect(this: unknown, ...args: unknown[]) {
        const own = state.kernel ? undefined : state.own; // kernel mode: connected from this thread, in its cwd
        // net.connect() passes its normalized arguments as one array (marked by a symbol of net's): changed in place.
        const slots = Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
        const joined = own && joinSocket(own, slots);
        if (joined !== undefined) askedInErrors(this as object, joined, 'connect');
        return original.apply(this, args);
      },
    'net.Socket.prototype.connect',
  );
  replace(
    process,
    'loadEnvFile',
    (original) =>
      function loadEnvFile(this: unknown, ...args: unknown[]) {
        const own = state.own;
        if (own === undefined || state.kernel) return original.apply(this, args); // kernel mode: read on this thread
        const copy = args.slice();
        copy[0] = toOs(own, args[0] === undefined ? '.env' : args[0]);
        try {
          return original.apply(this, copy);
        } catch (error) {
          throw fixError(error, own);
        }
      },
    'process.loadEnvFile',
  );
  replace(
    process,
    'dlopen',
    (original) =>
      function dlopen(this: unknown, ...args: unknown[]) {
        const own = state.own;
        const filename = args[1];
        // dlopen(3) searches the library path for a name without a slash: only a relative path with one is the cwd's.
        // Kernel mode: dlopen(3) runs on this thread, in its cwd.
        if (own === undefined || state.kernel || typeof filename !== 'string' || !filename.includes('/')) {
          return original.apply(this, args);
        }
        const copy = args.slice();
        // dlopen(3) takes a C string: a real chdir's dlopen stops at a NUL byte, which toOs() would leave unjoined.
        const name = filename.split('\0', 1)[0] as string;
        const given = toOs(own, name) as string;
        copy[1] = given;
        try {
          return original.apply(this, copy);
        } catch (error) {
          // dlopen(3)'s message starts with the name it was given.
          if (error instanceof Error) error.message = error.message.replaceAll(given, name);
          throw error;
        }
      },
    'process.dlopen',
  );
}
