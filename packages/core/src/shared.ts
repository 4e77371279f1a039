import { getEnvironmentData, isMainThread as isNodeMainThread, setEnvironmentData } from 'node:worker_threads';

interface WebWorkerGlobals {
  WorkerGlobalScope?: abstract new () => unknown;
}
const { WorkerGlobalScope } = globalThis as WebWorkerGlobals;

/**
 * Whether this is the process's main thread. Not worker_threads' `isMainThread` alone: inside Deno's web `Worker`
 * (`new Worker(url, { type: 'module' })`) that says true (trap 10), so a web worker is recognised by its global scope.
 */
export const isMainThread: boolean =
  isNodeMainThread && !(typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope);

/**
 * State of one thread that every copy of a strategy module shares (an ESM and a CJS copy of one package included):
 * created on first use, kept on globalThis under a registered symbol.
 */
export function threadState<T>(key: string, create: () => T): T {
  const slots = globalThis as Record<symbol, unknown>;
  const symbol = Symbol.for(`cwdkit.${key}`);
  slots[symbol] ??= create();
  return slots[symbol] as T;
}

/**
 * Memory shared by every thread of the process (trap 3). The main thread creates it and publishes it with
 * setEnvironmentData, so every worker created afterwards, by anyone, finds it. A worker started before that gets
 * `undefined` and must fall back to a correct, uncached path.
 */
export function sharedMemory(key: string, byteLength: number): SharedArrayBuffer | undefined {
  const name = `cwdkit:${key}`;
  const found = getEnvironmentData(name);
  if (found instanceof SharedArrayBuffer) return found;
  if (!isMainThread) return undefined;
  const memory = new SharedArrayBuffer(byteLength);
  setEnvironmentData(name, memory);
  return memory;
}
