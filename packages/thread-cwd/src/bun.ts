// Bun's kernel mode: what of Bun's own API the kernel does not move with a worker's thread. Bun.spawn, Bun.$ and
// sync fs run on the thread and follow it; what runs on Bun's work pool is in surface.ts (bunCoveredFunctions). Bun's
// Glob and resolver read Bun's own cached cwd, which only Bun's process.chdir moves (refused in a worker): they are
// given the thread's cwd, as process.cwd() says it, the way Bun gives them its cached one.
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';
import type { patcher } from './patch.js';
import { fsOriginals, state } from './state.js';

const path = process.getBuiltinModule('node:path');

export const bun = (process.versions as { bun?: string }).bun !== undefined;

/**
 * Bun closes none of a worker's files when the worker ends (Node does), so a pool of workers that chdir'd would run out
 * of them, a directory handle each. The parent hands each new worker two slots of shared memory (its cwd's handle, the
 * handle it stays in after uninstall()); the worker records them there, and the parent closes them once the worker has
 * ended (its 'exit' or 'close', after a terminate() too), never before: the worker's own 'exit' listeners still read
 * through them. A slot holds fd + 1: 0 is none. Not closed: a handle a call still in flight held when the worker was
 * terminated, one opened by a chdir cut short, and those of a worker whose parent worker ended first.
 */
export const BUN_HANDLES = 'cwdkit:thread-cwd.bun-handles.v1';
/** This worker's slots, taken when this file loads and cleared: a worker it starts gets its own, or none. */
const slots = ((): Int32Array | undefined => {
  if (!bun || isMainThread) return undefined;
  const shared = getEnvironmentData(BUN_HANDLES);
  if (!(shared instanceof SharedArrayBuffer)) return undefined;
  setEnvironmentData(BUN_HANDLES, undefined);
  return new Int32Array(shared);
})();

/** Records this worker's handle `which` (0: its cwd, 1: where uninstall() keeps it); undefined: none now. */
export function recordHandle(which: 0 | 1, fd: number | undefined): void {
  if (slots) Atomics.store(slots, which, fd === undefined ? 0 : fd + 1);
}

/** Closes the handles an ended worker recorded in `recorded`, each once (both slots may name the same). */
export function closeRecorded(recorded: Int32Array): void {
  const fds = new Set<number>();
  for (let which = 0; which < recorded.length; which++) fds.add(Atomics.exchange(recorded, which, 0) - 1);
  for (const fd of fds) {
    if (fd < 0) continue;
    try {
      fsOriginals.closeSync(fd);
    } catch {}
  }
}

interface BunApi {
  Glob: { prototype: Record<'scan' | 'scanSync', (options?: unknown) => unknown> };
  resolveSync(specifier: string, from: string): string;
  resolve(specifier: string, from: string): Promise<string>;
}

/** `from` (a directory, relative to the cwd) as Bun would read it with its cached cwd where that were this thread's. */
const fromHere = (from: unknown): unknown =>
  state.own !== undefined && typeof from === 'string' ? path.resolve(process.cwd(), from) : from;

/** Bun.Glob's scans and Bun's resolver, given this thread's cwd where they would take Bun's cached one. */
export function coverBun(replace: ReturnType<typeof patcher>['replace']): void {
  const api = (globalThis as unknown as { Bun: BunApi }).Bun;
  for (const name of ['scan', 'scanSync'] as const) {
    replace(
      api.Glob.prototype,
      name,
      (original) =>
        function (this: unknown, options?: unknown) {
          if (state.own === undefined) return original.call(this, options);
          // A string is the cwd itself; an object's cwd defaults to the cwd (and null is none, as undefined).
          if (typeof options === 'string' || options === undefined || options === null) {
            return original.call(this, fromHere(options ?? '.'));
          }
          if (options === null || typeof options !== 'object') return original.call(this, options);
          const { cwd } = options as { cwd?: unknown };
          return original.call(this, { ...options, cwd: fromHere(cwd ?? '.') });
        },
      `Bun.Glob.prototype.${name}`,
    );
  }
  for (const name of ['resolveSync', 'resolve'] as const) {
    replace(api, name, (original) => resolveFrom(original), `Bun.${name}`);
  }
  // Relative paths these join to the cached cwd: joined to the thread's by path.resolve (cwdkit's, installed).
  replace(
    path,
    'relative',
    (original) =>
      function relative(this: unknown, from: unknown, to: unknown) {
        if (state.own === undefined || typeof from !== 'string' || typeof to !== 'string') {
          return original.call(this, from, to);
        }
        return original.call(this, path.resolve(from), path.resolve(to));
      },
    'path.relative',
  );
  replace(
    api as unknown as Record<string, unknown>,
    'pathToFileURL',
    (original) =>
      function pathToFileURL(this: unknown, file: unknown, ...rest: unknown[]) {
        if (state.own === undefined || typeof file !== 'string' || path.isAbsolute(file)) {
          return original.call(this, file, ...rest);
        }
        // path.resolve drops a trailing slash, which the URL keeps (a directory's).
        return original.call(this, `${path.resolve(file)}${file.endsWith('/') ? '/' : ''}`, ...rest);
      },
    'Bun.pathToFileURL',
  );
}

/** Bun.cwd (a string Bun's own chdir keeps), as this thread's cwd says. */
export function followBunCwd(cwd: string): void {
  if (bun) (globalThis as unknown as { Bun: { cwd: string } }).Bun.cwd = cwd;
}

/**
 * Bun's resolver with a relative `from` starts from its cached cwd, whatever that `from` says (`'sub'` and `'..'`
 * alike): it is given this thread's cwd instead, and its error says `from` as given.
 */
function resolveFrom(original: (...args: unknown[]) => unknown) {
  return function (this: unknown, specifier: unknown, from: unknown, ...rest: unknown[]) {
    // Absolute, or a URL (file:///x.js): not the cached cwd's.
    if (
      state.own === undefined ||
      typeof from !== 'string' ||
      path.isAbsolute(from) ||
      /^[a-z][a-z\d+.-]*:/i.test(from)
    ) {
      return original.call(this, specifier, from, ...rest);
    }
    const cwd = process.cwd();
    const asGiven = (error: unknown) => {
      if (error instanceof Error) {
        const message = error.message.replace(` from ${cwd}`, ` from ${from}`);
        Object.defineProperty(error, 'message', { value: message, configurable: true, writable: true });
        Object.defineProperty(error, 'referrer', { value: from, configurable: true, writable: true });
      }
      return error;
    };
    let result: unknown;
    try {
      result = original.call(this, specifier, cwd, ...rest);
    } catch (error) {
      throw asGiven(error);
    }
    return result instanceof Promise
      ? result.catch((error: unknown) => {
          throw asGiven(error);
        })
      : result;
  };
}
