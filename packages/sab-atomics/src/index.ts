import {
  buildProvider,
  type CwdCapabilities,
  type CwdProvider,
  coldWorkerCwd,
  cwdAfterChdir,
  defineStrategy,
  isMainThread,
  osChdir,
  readOsCwd,
  refuseWorkerChdir,
  sharedMemory,
  sharedMemoryTiming,
  threadState,
} from '@cwdkit/core';

/** The layout version is part of the key, so two copies with different layouts never share one buffer. */
const KEY = 'sab-atomics.v1';
/** Generations stay in 0..2^31-1, so NONE can never match one. */
const MASK = 0x7fffffff;
const NONE = -1;

interface State {
  /**
   * The generation, [0]: bumped by the main thread after each chdir. Undefined in a worker started too early, and on
   * the main thread until it is created (see timing).
   */
  generation: Int32Array | undefined;
  /** This thread's cached cwd; on the main thread, undefined means "ask the OS next time". */
  cwd: string | undefined;
  /** In a worker: the generation `cwd` was read under. */
  seen: number;
}

const createGeneration = () => {
  const memory = sharedMemory(KEY, Int32Array.BYTES_PER_ELEMENT);
  return memory && new Int32Array(memory);
};

/** When the main thread creates the buffer: at load, or under cwdkit/register on first need (core's sharedMemoryTiming). */
const timing = sharedMemoryTiming();

// One state per thread, shared by every provider and by the ESM and CJS copies of this package. The main thread
// creates and publishes the buffer (when this package loads, or see timing), so every worker created afterwards finds
// it (trap 3).
const state = threadState<State>(KEY, () => ({
  generation: timing === 'load' ? createGeneration() : undefined,
  cwd: undefined,
  seen: NONE,
}));
/** In a worker: what it found when it started, for good. */
const { generation } = state;

const capabilities: CwdCapabilities = { workerCoherent: true, chdirFromWorker: false, externalChange: 'never' };

/** Only the main thread chdirs, so its cache needs no counter check: it is dropped by its own chdir. */
function mainCwd(): string {
  return state.cwd ?? readIntoMainCache();
}

function readIntoMainCache(): string {
  if (timing === 'first-read') state.generation ??= createGeneration();
  const cwd = readOsCwd();
  state.cwd = cwd;
  return cwd;
}

/** Tells every worker to ask the OS again. Called after the chdir returned, never before (trap 1). */
function bump(): void {
  state.generation ??= createGeneration(); // the first chdir publishes it where its creation waited
  const shared = state.generation;
  if (shared) Atomics.store(shared, 0, ((shared[0] as number) + 1) & MASK);
}

function mainChdir(directory: string): void {
  osChdir(directory); // throws Node's error shape and changes nothing
  state.cwd = cwdAfterChdir(); // the runtime's own, refreshed by its chdir: no second OS read
  bump();
}

/**
 * The check is a plain read, several times cheaper than Atomics.load: a cwd() that starts after chdir() returned is
 * ordered after the bump by whatever told it so, and a plain read that happens after a write cannot miss it. The
 * miss path loads atomically, so the OS read cannot move before it (trap 1, on weak-memory CPUs too).
 */
function workerCwd(): string {
  return (generation as Int32Array)[0] === state.seen ? (state.cwd as string) : readIntoWorkerCache();
}

function readIntoWorkerCache(): string {
  const seen = Atomics.load(generation as Int32Array, 0);
  const cwd = readOsCwd(); // the OS, never the runtime's worker cache (trap 2)
  state.cwd = cwd;
  state.seen = seen;
  return cwd;
}

/** A worker started before this package loaded on the main thread (a cold worker) has no generation to watch. */
const parts = isMainThread
  ? {
      cwd: mainCwd,
      chdir: mainChdir,
      invalidate() {
        state.cwd = undefined;
        bump(); // the workers ask the OS too: a chdir behind our back is seen everywhere
      },
    }
  : generation
    ? {
        cwd: workerCwd,
        chdir: refuseWorkerChdir,
        invalidate() {
          state.seen = NONE;
        },
      }
    : // Cold: the runtime's own answer where it is coherent (Node 24.15+, Deno), else the OS on every call.
      { ...coldWorkerCwd(), chdir: refuseWorkerChdir, capabilities: { ...capabilities, cold: true } };

/** A cached cwd per thread, re-read from the OS when a shared generation counter moved. */
export const strategy = defineStrategy({
  specVersion: 1,
  name: 'sab-atomics',
  description:
    'A cached cwd per thread; workers re-read the OS when a generation counter in a SharedArrayBuffer moved.',
  create(): CwdProvider {
    return buildProvider({ strategy: 'sab-atomics', capabilities, ...parts });
  },
});

/** A sab-atomics CwdProvider: cached, coherent across worker threads, chdir on the main thread; as strategy.create(). */
export const createProvider = (): CwdProvider => strategy.create();
export default strategy;
