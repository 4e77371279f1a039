import process from 'node:process';
import {
  buildProvider,
  type CwdCapabilities,
  type CwdProvider,
  checkCwdName,
  codedError,
  coldWorkerCwd,
  cwdAfterChdir,
  defineStrategy,
  isMainThread,
  osChdir,
  readOsCwd,
  refuseWorkerChdir,
  runtime,
  runtimeWorkerCwdCoherent,
  sharedMemory,
} from '@cwdkit/core';
import { binding } from './binding.js';

export type NativeMode = 'strict' | 'cached' | 'watch';

export interface NativeOptions {
  /** 'strict': ask the OS on every call; 'cached' (default): a cache kept coherent across threads; 'watch': cached,
   *  plus a native thread that notices a chdir(2) made behind our back within boundedMs. */
  mode?: NativeMode;
  /** Mode 'watch' only: how often the thread polls getcwd, in whole milliseconds. Default 20. */
  intervalMs?: number;
}

const MODES: readonly NativeMode[] = ['strict', 'cached', 'watch'];
const DEFAULT_INTERVAL_MS = 20;
/** A change is seen at the watcher's next poll; the rest is room for a busy scheduler. */
const SCHEDULING_SLACK_MS = 30;

function parseOptions(options: NativeOptions | undefined): { mode: NativeMode; intervalMs: number } {
  if (options === undefined) return { mode: 'cached', intervalMs: DEFAULT_INTERVAL_MS };
  if (options === null || typeof options !== 'object') {
    throw codedError(new TypeError('@cwdkit/native: options must be an object'), 'ERR_INVALID_ARG_TYPE');
  }
  const { mode = 'cached', intervalMs } = options;
  if (!MODES.includes(mode)) {
    const message = `@cwdkit/native: mode must be one of ${MODES.join(', ')}; got ${JSON.stringify(mode)}`;
    throw codedError(new TypeError(message), 'ERR_INVALID_ARG_VALUE');
  }
  if (intervalMs === undefined) return { mode, intervalMs: DEFAULT_INTERVAL_MS };
  if (mode !== 'watch') {
    const message = `@cwdkit/native: intervalMs applies to mode 'watch' only, not ${JSON.stringify(mode)}`;
    throw codedError(new TypeError(message), 'ERR_INVALID_ARG_VALUE');
  }
  if (typeof intervalMs !== 'number') {
    const message = `@cwdkit/native: intervalMs must be a number; got ${typeof intervalMs}`;
    throw codedError(new TypeError(message), 'ERR_INVALID_ARG_TYPE');
  }
  if (!Number.isInteger(intervalMs) || intervalMs < 1 || intervalMs > 2 ** 31 - 1) {
    const message = `@cwdkit/native: intervalMs must be a whole number of milliseconds >= 1; got ${intervalMs}`;
    throw codedError(new RangeError(message), 'ERR_OUT_OF_RANGE');
  }
  return { mode, intervalMs };
}

/** Inside Deno's web Worker, worker_threads' isMainThread says true (trap 10): it is recognised by its global scope. */
const { WorkerGlobalScope } = globalThis as { WorkerGlobalScope?: abstract new () => unknown };
const webWorker = typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope;
const mainThread = isMainThread && !webWorker;
/** Bun refreshes its cached cwd inside its chdir: reading it afterwards costs no OS read. */
const bunRefreshes = runtime === 'bun';

/** The layout version is part of the key: copies with the same layout, whatever their version, share one buffer. */
const KEY = 'native.generation.v1';

/**
 * The process-wide generation, [0]: bumped after every chdir (trap 1), invalidate() and change the watch thread sees.
 * One SharedArrayBuffer for the whole process, found through core's sharedMemory (trap 3), so every copy and version
 * of this package and every thread read the same one. Undefined in a worker started before the package loaded on the
 * main thread, in a Deno web Worker (and everywhere with CWDKIT_NATIVE_SHARED=0): that thread asks the OS on every
 * call.
 */
const generation: Uint32Array | undefined = (() => {
  // A web worker cannot see the main thread's environment data: sharedMemory would make it a private buffer.
  if (process.env.CWDKIT_NATIVE_SHARED === '0' || webWorker) return undefined;
  const memory = sharedMemory(KEY, Uint32Array.BYTES_PER_ELEMENT);
  return memory && new Uint32Array(memory);
})();

/**
 * chdir from a worker is never claimed. Node and Bun cache the cwd per thread, and a chdir in a worker cannot clear the
 * main thread's cache; on Deno, a web Worker cannot reach the shared generation (trap 10), so its chdir would leave
 * every other thread's cache behind. A worker gets the runtime's own refusal, as process.chdir gives it.
 */
const chdirFromWorker = false;

function capabilitiesOf(mode: NativeMode, intervalMs: number): CwdCapabilities {
  const base = { workerCoherent: true, chdirFromWorker } as const;
  if (mode === 'strict' || generation === undefined) return { ...base, externalChange: 'immediate' };
  if (mode === 'cached') return { ...base, externalChange: 'never' };
  return { ...base, externalChange: 'bounded', boundedMs: intervalMs + SCHEDULING_SLACK_MS };
}

/**
 * The OS's answer; on failure, core builds the error, worded as every strategy words it on this runtime. Node-API
 * decodes a name that is not UTF-8 with U+FFFD, on every runtime: checkCwdName turns that into EILSEQ.
 */
function osCwd(): string {
  const path = binding.getcwd();
  return typeof path === 'string' ? checkCwdName(path) : readOsCwd();
}

function bump(): void {
  if (generation) Atomics.add(generation, 0, 1);
}

/**
 * The runtime's own chdir (trap 7: the original, captured by core), so that its cache, path.resolve and relative
 * imports move too (trap 9); then the generation is bumped (trap 1).
 *
 * On Bun the runtime refreshed its own cwd inside that chdir, so this thread's cache takes it and the next cwd()
 * skips a second OS read. Only when nothing else moved the generation since before the chdir: a change the watch
 * thread reported meanwhile may be newer than what Bun cached, and the next cwd() must ask the OS. (Node and Deno
 * would read the OS for it: that stays with the next cwd(), which may never come.)
 */
function chdir(directory: string): void {
  const before = generation && bunRefreshes ? Atomics.load(generation, 0) : undefined;
  osChdir(directory);
  if (!generation) return;
  const previous = Atomics.add(generation, 0, 1);
  if (previous !== before) return;
  const path = cwdAfterChdir();
  if (path === undefined) return;
  cachedGeneration = (previous + 1) >>> 0;
  cachedPath = path;
}

// This thread's cache. An ESM and a CJS copy of this package each keep one, and that is safe: both are checked
// against the same process-wide generation. Plain variables: the hit reads nothing else.
let cachedGeneration = -1; // the generation is a Uint32, so -1 never matches it
let cachedPath = '';

function miss(): string {
  // An atomic load, then ask the OS (trap 1): a chdir in between bumps the generation again, so the next cwd()
  // misses instead of keeping the old path under the new generation.
  const seen = Atomics.load(generation as Uint32Array, 0);
  const path = osCwd();
  cachedGeneration = seen;
  cachedPath = path;
  return path;
}

// The hit is a plain load: an aligned 32-bit read cannot tear, and it costs ~0.5 ns where Atomics.load costs ~6 ns
// on Node 20. The miss above loads atomically before it reads the OS.
function cachedCwd(): string {
  return (generation as Uint32Array)[0] === cachedGeneration ? cachedPath : miss();
}

// Drops the registration of a watch provider that was garbage-collected without close().
const watchers = new FinalizationRegistry<number>((id) => binding.unwatch(id));

/** One per thread, as the cache is: invalidate() on one cold provider is seen by every other of this thread. */
let coldCwd: ReturnType<typeof coldWorkerCwd> | undefined;

function create(options?: NativeOptions): CwdProvider {
  const { mode, intervalMs } = parseOptions(options);
  const capabilities = capabilitiesOf(mode, intervalMs);
  const chdirHere = mainThread ? chdir : refuseWorkerChdir;
  const parts = { strategy: 'native', capabilities, chdir: chdirHere };
  if (mode === 'strict') return buildProvider({ ...parts, cwd: osCwd, invalidate() {} });
  if (generation === undefined) {
    // A cold worker in mode 'cached': the runtime's own worker cwd where it is coherent (Node 24.15+), which, like
    // the cache, sees a chdir(2) behind its back only after invalidate(); elsewhere getcwd on every call.
    const trustRuntime = !mainThread && mode === 'cached' && runtime === 'node' && runtimeWorkerCwdCoherent;
    if (trustRuntime) coldCwd ??= coldWorkerCwd();
    return buildProvider({
      ...parts,
      ...(trustRuntime && coldCwd ? coldCwd : { cwd: osCwd, invalidate() {} }),
      capabilities: { ...capabilities, ...(trustRuntime ? { externalChange: 'never' } : {}), cold: !mainThread },
    });
  }
  if (mode === 'cached') return buildProvider({ ...parts, cwd: cachedCwd, invalidate: bump });
  const id = binding.watch(generation, intervalMs); // throws ERR_CWDKIT_WATCH_THREAD, having started nothing
  const token = {};
  const provider = buildProvider({
    ...parts,
    cwd: cachedCwd,
    invalidate: bump,
    polls: binding.watchPolls,
    close() {
      watchers.unregister(token);
      binding.unwatch(id);
    },
  });
  watchers.register(provider, id, token);
  return provider;
}

/** The native strategy: a Node-API addon with a generation in shared memory; modes 'strict', 'cached', 'watch'. */
export const strategy = defineStrategy<NativeOptions>({
  specVersion: 1,
  name: 'native',
  description:
    'A Node-API addon: getcwd(3) from any thread, a process-wide generation in shared memory, a native watch ' +
    "thread; modes 'strict', 'cached' (default) and 'watch'",
  options: ['mode', 'intervalMs'],
  create,
});

export default strategy;

/** A provider of the native strategy; options.mode is 'cached' unless told otherwise. */
export function createProvider(options?: NativeOptions): CwdProvider {
  return strategy.create(options);
}

/** Raw Node-API calls, for the benchmarks: the cost of crossing into the addon, and of a native getcwd. */
export const napi: { readonly noop: () => void; readonly getcwd: () => string } = Object.freeze({
  noop: binding.noop,
  getcwd: osCwd,
});

/**
 * How many watch threads (mode 'watch') the addon runs in the whole process right now, counted by the addon itself:
 * one per thread that holds an open watch provider, none once they are closed, collected or their worker has ended.
 * The runtime's own threads are not counted. (Two installed copies of the package each count their own.)
 */
export function watchThreads(): number {
  return binding.watchThreads();
}

/**
 * How many polls this thread's watch thread has completed since the package loaded in this thread. A chdir(2) made
 * behind the provider's back before a poll starts is seen once that poll completes: two more polls after the change
 * are always enough, however busy the machine.
 */
export function watchPolls(): number {
  return binding.watchPolls();
}

/** Whether this thread has the process-wide generation (false: every cwd() asks the OS). */
export const sharesGeneration: boolean = generation !== undefined;
