// What a worker's early cover (early.ts, the setup entry's) and the install share: which functions are trampolines,
// whether the install was deferred, the Worker cover put in place at start, and the names of the environment data a
// worker hands to the workers it starts, and what a wrapper keeps of the function it wraps (named). Imports nothing at
// run time: the setup entry bundles it.
import type { Fn } from './patch.js';

/** A trampoline's target: the covered function once install() sets it, else the original; and what it stands for. */
export interface Route {
  readonly original: Fn;
  covered: Fn | undefined;
  readonly module: 'fs' | 'fs/promises';
  /** Its name in the module, as surface.ts spells it ('readFile', 'realpath.native'). */
  readonly name: string;
}

/**
 * As core's threadSlots() on Node (this file loads no core): the same object in every vm context of the thread. Read
 * at each call, not at load: the setup entry loads this file on Deno too, where the first read of `process` starts
 * Deno's Node layer (deno-early.ts).
 */
const slots = (): Record<symbol, unknown> => Object.getPrototypeOf(process);
const ROUTES = Symbol.for('cwdkit.thread-cwd.early-routes.v2');
const EARLY = Symbol.for('cwdkit.thread-cwd.early.v1');

/** Whether the setup entry deferred this thread's install (the early cover is in place): kernel mode was expected. */
export const deferredHere = (): boolean => slots()[EARLY] !== undefined;
export const markDeferred = (): void => {
  slots()[EARLY] = true;
};

/** The trampolines of this thread, by the function put in place: cover.ts gives each its covered function. */
export const routes = (): Map<unknown, Route> => {
  slots()[ROUTES] ??= new Map<unknown, Route>();
  return slots()[ROUTES] as Map<unknown, Route>;
};

const NAMES = Symbol.for('cwdkit.thread-cwd.early-names.v2');

/**
 * The names each module exported when the early cover put its trampolines there ('fs' → ['readFile', ...]): what a
 * library adds before the install (graceful-fs's `fs.gracefulify`) is not Node's, and is no uncovered function of
 * Node's to warn about. Undefined where the install was not deferred; a module not there was not routed early.
 */
export const earlyNames = (): ReadonlyMap<string, readonly string[]> | undefined =>
  slots()[NAMES] as ReadonlyMap<string, readonly string[]> | undefined;
export const keepEarlyNames = (module: string, names: readonly string[]): void => {
  slots()[NAMES] ??= new Map<string, readonly string[]>();
  (slots()[NAMES] as Map<string, readonly string[]>).set(module, names);
};

/**
 * Where a worker hands its cwd to the workers it starts (environment data is copied into each new worker): its path,
 * set at chdir, or, while the covered Worker constructs one, its handle's path (workers.ts).
 */
export const HANDOFF = 'cwdkit:thread-cwd.v1';

/**
 * Set (never unset) in a thread whose fs_struct is not the process's: it unshared, or it was started by a thread whose
 * was not (a new thread shares its creator's). Environment data is copied into each new worker, so every descendant
 * has it, as every descendant's fs_struct is such a copy.
 */
export const PRIVATE_FS = 'cwdkit:thread-cwd.private-fs.v1';

/**
 * Set while the covered Worker constructs one whose execArgv it gave the setup entry: that entry, and the execArgv the
 * caller gave or the worker would have inherited, which its process.execArgv then says (workers.ts).
 */
export const ADDED = 'cwdkit:thread-cwd.added.v2';
export interface Added {
  readonly entry: string;
  readonly execArgv: readonly string[];
}

/** Whether this thread was started with the setup entry preloaded by an absolute --require (worker-class.ts). */
export const PRELOADED = Symbol.for('cwdkit.thread-cwd.preloaded.v1');

/**
 * The Worker cover put in place at start (start.ts on a Node main thread, the setup entry's early cover in a worker),
 * until thread-cwd's install() adopts it. `around` is what install() gives it then. `construct` does what the covered
 * Worker does (worker-class.ts); the early cover has none until the install (its first `new Worker` installs).
 */
export interface StartCover {
  readonly original: unknown;
  around: ((filename: unknown) => (worker: unknown) => void) | undefined;
  construct: ((target: Fn, args: unknown[], newTarget: Fn) => object) | undefined;
}
export const START_COVER = Symbol.for('cwdkit.thread-cwd.start-cover.v2');

/** A function's name and length kept by its wrapper, and what else it carries (what a caller may read from it). */
export function named(wrapper: Fn, original: Fn): Fn {
  Object.defineProperty(wrapper, 'name', { value: original.name });
  Object.defineProperty(wrapper, 'length', { value: original.length });
  // util.promisify's own form (fs.exists has one: its callback takes no error), which calls fs.exists again: covered.
  // And what hangs on it (Bun's realpathSync.native, where realpathSync itself is covered).
  for (const key of Reflect.ownKeys(original)) {
    if (key === 'name' || key === 'length' || key === 'prototype' || Object.hasOwn(wrapper, key)) continue;
    Object.defineProperty(wrapper, key, Object.getOwnPropertyDescriptor(original, key) as PropertyDescriptor);
  }
  return wrapper;
}
