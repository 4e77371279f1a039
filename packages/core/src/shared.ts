// No import of node:worker_threads at load: on Node it loads all of streams (~2.5 ms and 2 MiB of every start-up under
// the cwdkit/register flag), on Bun ~4 ms, on Deno ~5 ms. It is loaded on first need (builtin), which on the main
// thread is the first sharedMemory() call and in a worker costs nothing on Node (the worker's bootstrap loaded it).

interface GlobalsWithRuntimes {
  process: { getBuiltinModule(id: string): unknown; moduleLoadList?: readonly string[] };
  Bun?: { isMainThread?: boolean };
  Deno?: unknown;
  Window?: abstract new () => unknown;
  WorkerGlobalScope?: abstract new () => unknown;
}
const globals = globalThis as unknown as GlobalsWithRuntimes;

/**
 * The object this thread's cwdkit records live on, one that every vm context of the thread sees: a test runner's
 * context (jest, vitest's vm pools) has a globalThis of its own, and under jest a copy of process (its own functions,
 * getBuiltinModule included) with the same prototype. So on Node and Bun the records hang on process's prototype; on
 * Deno (whose `process` costs ~9 ms at first touch) on globalThis. cwdkit's register (defaults.ts) and thread-cwd's
 * start cover find the same object.
 */
export function threadSlots(): Record<symbol, unknown> {
  const shared = globals.Deno === undefined && globals.process ? Object.getPrototypeOf(globals.process) : undefined;
  return (shared ?? globalThis) as Record<symbol, unknown>;
}

/** A builtin module, loaded when first asked for (process.getBuiltinModule: Node 20.16+, Bun, Deno). */
export function builtin<T>(id: string): T {
  return globals.process.getBuiltinModule(id) as T;
}

/**
 * Brings ES modules' named imports of the builtins (`import { readFileSync } from 'node:fs'`) in line with properties
 * just replaced on the modules (Node's module.syncBuiltinESMExports). Such imports exist only in a thread that loaded
 * the ES module loader; before it, the next one reads the property as it is then, and node:module, which costs a fresh
 * CommonJS worker ~2 ms to load, is not needed. Bun and Deno bind them once: nothing to do there.
 */
export function syncBuiltinExports(): void {
  if (globals.Deno !== undefined || globals.Bun !== undefined) return;
  const loaded = globals.process.moduleLoadList;
  if (loaded && !loaded.includes('NativeModule internal/modules/esm/loader')) return;
  builtin<{ syncBuiltinESMExports(): void }>('node:module').syncBuiltinESMExports();
}

interface WorkerThreads {
  readonly isMainThread: boolean;
  getEnvironmentData(key: string): unknown;
  setEnvironmentData(key: string, value: unknown): void;
}
const workerThreads = () => builtin<WorkerThreads>('node:worker_threads');

/**
 * True where the main thread is known without loading worker_threads, where a false true is impossible: on Node a
 * worker's bootstrap always loads internal/worker/io (a main thread has it only once something loaded worker_threads);
 * Bun says so itself; on Deno the main thread's global object is a Window, a worker's (web or worker_threads) a
 * DedicatedWorkerGlobalScope. Otherwise undefined: worker_threads decides.
 */
function knownMainThread(): true | undefined {
  const { Bun, Deno, Window } = globals;
  if (Bun !== undefined) return Bun.isMainThread === true ? true : undefined;
  if (Deno !== undefined) return typeof Window === 'function' && globalThis instanceof Window ? true : undefined;
  const loaded = globals.process.moduleLoadList;
  return Array.isArray(loaded) && !loaded.includes('NativeModule internal/worker/io') ? true : undefined;
}

/**
 * Whether this is the process's main thread. Not worker_threads' `isMainThread` alone: inside Deno's web `Worker`
 * (`new Worker(url, { type: 'module' })`) that says true (trap 10), so a web worker is recognised by its global scope.
 */
export const isMainThread: boolean =
  knownMainThread() ??
  (workerThreads().isMainThread &&
    !(typeof globals.WorkerGlobalScope === 'function' && globalThis instanceof globals.WorkerGlobalScope));

/**
 * State of one thread that every copy of a strategy module shares (an ESM and a CJS copy of one package included):
 * created on first use, kept on globalThis under a registered symbol.
 */
export function threadState<T>(key: string, create: () => T): T {
  const slots = threadSlots();
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
  const { getEnvironmentData, setEnvironmentData } = workerThreads();
  const found = getEnvironmentData(name);
  if (found instanceof SharedArrayBuffer) return found;
  if (!isMainThread) return undefined;
  const memory = new SharedArrayBuffer(byteLength);
  setEnvironmentData(name, memory);
  return memory;
}
