// The early cover's record in this thread (early.ts puts it in place at a worker's start, cover.ts takes it over at
// install): which functions are trampolines, and whether the install was deferred. Imports nothing at run time.
import type { Fn } from './patch.js';
import type { Covered } from './surface.js';

/** A trampoline's target: the covered function once install() sets it, else the original; and what it stands for. */
export interface Route {
  readonly original: Fn;
  covered: Fn | undefined;
  readonly entry: Covered;
}

/** As core's threadSlots() on Node (this file loads no core): the same object in every vm context of the thread. */
const slots = Object.getPrototypeOf(process) as Record<symbol, unknown>;
const ROUTES = Symbol.for('cwdkit.thread-cwd.early-routes.v1');
const EARLY = Symbol.for('cwdkit.thread-cwd.early.v1');

/** Whether the setup entry deferred this thread's install (the early cover is in place): kernel mode was expected. */
export const deferredHere = (): boolean => slots[EARLY] !== undefined;
export const markDeferred = (): void => {
  slots[EARLY] = true;
};

/** The trampolines of this thread, by the function put in place: cover.ts gives each its covered function. */
export const routes = (): Map<unknown, Route> => {
  slots[ROUTES] ??= new Map<unknown, Route>();
  return slots[ROUTES] as Map<unknown, Route>;
};

const NAMES = Symbol.for('cwdkit.thread-cwd.early-names.v1');

/**
 * The names node:fs and fs/promises exported when the setup entry deferred the install ('fs.readFile',
 * 'fs/promises.stat'): what a library adds before the install (graceful-fs's `fs.gracefulify`) is not Node's, and is no
 * uncovered function of Node's to warn about. Undefined where the install was not deferred.
 */
export const earlyNames = (): ReadonlySet<string> | undefined => slots[NAMES] as ReadonlySet<string> | undefined;
export const keepEarlyNames = (names: ReadonlySet<string>): void => {
  slots[NAMES] = names;
};
