import os from 'node:os';
import process from 'node:process';
import {
  buildProvider,
  type CwdCapabilities,
  type CwdProvider,
  chdirError,
  codedError,
  defineStrategy,
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

function capabilitiesOf(mode: NativeMode, intervalMs: number): CwdCapabilities {
  const coherent = { workerCoherent: true, chdirFromWorker: true } as const;
  if (mode === 'strict') return { ...coherent, externalChange: 'immediate' };
  if (mode === 'cached') return { ...coherent, externalChange: 'never' };
  return { ...coherent, externalChange: 'bounded', boundedMs: intervalMs + SCHEDULING_SLACK_MS };
}

function errnoName(errno: number): string {
  const names = os.constants.errno as Record<string, number>;
  return Object.keys(names).find((name) => names[name] === errno) ?? 'UNKNOWN';
}

function cwdForMessage(): string {
  try {
    return binding.getcwd();
  } catch {
    return '';
  }
}

/** The same chdir for every mode and thread: chdir(2), then the generation is bumped (in the addon, trap 1). */
function chdir(directory: string): void {
  const errno = binding.chdir(directory);
  // Nothing moved, so the cwd now is the cwd before.
  if (errno !== 0) throw chdirError(errnoName(errno), cwdForMessage(), directory);
}

// This thread's cache. An ESM and a CJS copy of this package each keep one, and that is safe: both are checked
// against the same process-wide generation. Plain variables: the hit reads nothing else.
let cachedGeneration = -1; // the generation is a Uint32, so -1 never matches it
let cachedPath = '';

/**
 * The generation as plain memory when the runtime lets the addon share it: the hot path then makes no call.
 * CWDKIT_NATIVE_SHARED=0 turns that off, to run what a runtime that refuses external memory gets.
 */
const view =
  binding.generationBuffer === undefined || process.env.CWDKIT_NATIVE_SHARED === '0'
    ? undefined
    : new Uint32Array(binding.generationBuffer);

function miss(): string {
  // An atomic load, then ask the OS (trap 1): a chdir in between bumps the generation again, so the next cwd()
  // misses instead of keeping the old path under the new generation.
  const generation = view ? Atomics.load(view, 0) : binding.generation();
  const path = binding.getcwd();
  cachedGeneration = generation;
  cachedPath = path;
  return path;
}

// The hit is a plain load: an aligned 32-bit read cannot tear, and it costs ~0.5 ns where Atomics.load costs ~6 ns
// on Node 20. The miss above loads atomically before it reads the OS.
const cachedCwd: () => string = view
  ? () => (view[0] === cachedGeneration ? cachedPath : miss())
  : () => (binding.generation() === cachedGeneration ? cachedPath : miss());

// Stops the thread of a watch provider that was dropped without close().
const watchers = new FinalizationRegistry<number>((id) => binding.unwatch(id));

function create(options?: NativeOptions): CwdProvider {
  const { mode, intervalMs } = parseOptions(options);
  const capabilities = capabilitiesOf(mode, intervalMs);
  if (mode === 'strict') {
    return buildProvider({ strategy: 'native', capabilities, cwd: binding.getcwd, chdir, invalidate() {} });
  }
  if (mode === 'cached') {
    return buildProvider({ strategy: 'native', capabilities, cwd: cachedCwd, chdir, invalidate: binding.bump });
  }
  const id = binding.watch(intervalMs);
  const token = {};
  const provider = buildProvider({
    strategy: 'native',
    capabilities,
    cwd: cachedCwd,
    chdir,
    invalidate: binding.bump,
    close() {
      watchers.unregister(token);
      binding.unwatch(id);
    },
  });
  watchers.register(provider, id, token);
  return provider;
}

export const strategy = defineStrategy<NativeOptions>({
  specVersion: 1,
  name: 'native',
  description:
    'A Node-API addon: getcwd(3)/chdir(2) from any thread, a process-wide generation read from shared memory; ' +
    "modes 'strict', 'cached' (default) and 'watch'",
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
  getcwd: binding.getcwd,
});

/** Whether the hot path reads the generation from shared memory (true) or through a Node-API call (false). */
export const sharesGeneration: boolean = view !== undefined;
