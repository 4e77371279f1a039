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
const KEY = 'mutex.v1';
/** Bytes of path the shared memory holds; a longer cwd is published as "ask the OS". */
export const CAPACITY = 1024;
// The layout, in 32-bit words: the sequence number, the path's length in bytes, then the path in UTF-8.
const SEQUENCE = 0;
const LENGTH = 1;
const DATA = 2;
/** LENGTH when the path is not in shared memory (too long, or unreadable): a cwd is never empty. */
const ASK_OS = 0;
/** Sequence numbers stay in 0..2^31-1, so these never match one. */
const MASK = 0x7fffffff;
const NONE = -1;
const INVALIDATED = -2;
/** Copies tried while the writer keeps overlapping; then the OS is asked instead of waiting. */
const ATTEMPTS = 64;

interface State {
  /**
   * Undefined in a worker created before this package loaded on the main thread, and on the main thread until it is
   * created (see timing).
   */
  shared: Int32Array | undefined;
  /** This thread's cached cwd; on the main thread, undefined means "ask the OS next time". */
  cwd: string | undefined;
  /** In a worker: the sequence number `cwd` was read under, or NONE / INVALIDATED. */
  seen: number;
}

const encoder = new TextEncoder();
/** The ASCII packing below puts character i in byte i of the word only on a little-endian CPU. */
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
/** Private space: the writer encodes into it, a reader copies into it and decodes. */
const words = new Int32Array(CAPACITY / 4);
const bytes = new Uint8Array(words.buffer);

/** When the main thread creates the buffer: at load, or under cwdkit/register on first need (core's sharedMemoryTiming). */
const timing = sharedMemoryTiming();

// One state per thread, shared by every provider and by the ESM and CJS copies of this package. The main thread
// creates the buffer (when this package loads, or see timing), so every worker created afterwards finds it (trap 3).
const state = threadState<State>(KEY, () => ({
  shared: timing === 'load' ? createShared(undefined) : undefined,
  cwd: undefined,
  seen: NONE,
}));
/** In a worker: what it found when it started, for good. */
const { shared } = state;

/** The shared memory; on the main thread, created with the cwd in it (`cached`, or the OS's). */
function createShared(cached: string | undefined): Int32Array | undefined {
  const memory = sharedMemory(KEY, (DATA + CAPACITY / 4) * 4);
  const created = memory && new Int32Array(memory);
  if (created && isMainThread) publish(created, cached ?? tryReadOsCwd());
  return created;
}

/** The main thread's shared memory, created on first need where its creation waited. */
function mainShared(): Int32Array | undefined {
  state.shared ??= createShared(state.cwd);
  return state.shared;
}

function tryReadOsCwd(): string | undefined {
  try {
    return readOsCwd();
  } catch {
    return undefined;
  }
}

/**
 * The seqlock's only writer, the main thread: an odd sequence number while the words change, the next even one when
 * they are whole. It never waits and cannot fail half-way, so the lock is never left held. Every word is written with
 * Atomics.store and read with Atomics.load: a reader whose copy holds any word of this write sees the number change.
 */
function publish(shared: Int32Array, cwd: string | undefined): void {
  const sequence = shared[SEQUENCE] as number;
  Atomics.store(shared, SEQUENCE, sequence + 1);
  store(shared, LENGTH, cwd === undefined ? ASK_OS : write(shared, cwd));
  Atomics.store(shared, SEQUENCE, (sequence + 2) & MASK);
}

/**
 * Only a word that changes is stored: the others already hold the new value, whatever a reader copies. Each store is
 * sequentially consistent (a full fence on x64), so a chdir between directories that share a prefix stores a few
 * words instead of all.
 */
function store(shared: Int32Array, index: number, value: number): void {
  if (shared[index] !== value) Atomics.store(shared, index, value); // the only writer reads its own last write
}

/** Writes `cwd` in UTF-8 to the shared words; returns its length in bytes, or ASK_OS when it does not fit. */
function write(shared: Int32Array, cwd: string): number {
  const length = cwd.length;
  if (length > CAPACITY) return ASK_OS; // UTF-8 takes at least one byte per UTF-16 unit
  // ASCII goes straight in, four characters a word: encodeInto would cost ~100 ns more on Deno, and after the
  // chdir syscall every other page touched costs a TLB miss here (page-table isolation flushes the TLB).
  let i = 0;
  if (littleEndian) {
    let word = 0;
    for (; i < length; i++) {
      const code = cwd.charCodeAt(i);
      if (code > 0x7f) break;
      word |= code << ((i & 3) << 3);
      if ((i & 3) === 3) {
        store(shared, DATA + (i >> 2), word);
        word = 0;
      }
    }
    if (i === length) {
      if (length & 3) store(shared, DATA + (length >> 2), word);
      return length;
    }
  }
  const { read, written } = encoder.encodeInto(cwd, bytes);
  if (read !== length) return ASK_OS;
  for (let w = 0; w < (written + 3) >> 2; w++) store(shared, DATA + w, words[w] as number);
  return written;
}

const capabilities: CwdCapabilities = { workerCoherent: true, chdirFromWorker: false, externalChange: 'never' };

/** Only the main thread chdirs, so its cache needs no check: it is replaced by its own chdir. */
function mainCwd(): string {
  return state.cwd ?? readIntoMainCache();
}

function readIntoMainCache(): string {
  const cwd = readOsCwd();
  state.cwd = cwd;
  if (timing === 'first-read') mainShared();
  return cwd;
}

function mainChdir(directory: string): void {
  osChdir(directory); // throws Node's error shape and changes nothing
  state.cwd = cwdAfterChdir(); // undefined if the directory vanished at once: the next cwd() gives ENOENT
  const memory = mainShared();
  if (memory) publish(memory, state.cwd); // after the chdir, never before (trap 1)
}

/** A plain read for the check, as in @cwdkit/sab-atomics: a cwd() that starts after a publish cannot miss it. */
function workerCwd(): string {
  return (shared as Int32Array)[SEQUENCE] === state.seen ? (state.cwd as string) : readIntoWorkerCache();
}

/** The miss path: copy the path out of shared memory and decode it, no syscall; the OS only when told to ask it. */
function readIntoWorkerCache(): string {
  const memory = shared as Int32Array;
  if (state.seen !== INVALIDATED) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const sequence = Atomics.load(memory, SEQUENCE);
      if (sequence & 1) continue; // a write is under way: try again, never wait
      const length = Atomics.load(memory, LENGTH);
      if (length === ASK_OS) break;
      for (let i = 0; i < (length + 3) >> 2; i++) words[i] = Atomics.load(memory, DATA + i);
      if (Atomics.load(memory, SEQUENCE) !== sequence) continue; // a write overlapped the copy: it may be torn
      return remember(sequence, decoder.decode(bytes.subarray(0, length)));
    }
  }
  // Load the sequence before asking the OS (trap 1): a cwd read after it is at least as new as what it stands for.
  const sequence = Atomics.load(memory, SEQUENCE);
  return remember(sequence, readOsCwd()); // the OS, never the runtime's worker cache (trap 2)
}

function remember(sequence: number, cwd: string): string {
  state.cwd = cwd;
  state.seen = sequence;
  return cwd;
}

/** A worker started before this package loaded on the main thread (a cold worker) has no shared memory. */
const parts = isMainThread
  ? {
      cwd: mainCwd,
      chdir: mainChdir,
      invalidate() {
        state.cwd = undefined;
        const memory = mainShared();
        if (memory) publish(memory, undefined); // every worker asks the OS too: a chdir behind our back is seen everywhere
      },
    }
  : shared
    ? {
        cwd: workerCwd,
        chdir: refuseWorkerChdir,
        invalidate() {
          state.seen = INVALIDATED;
        },
      }
    : // Cold: the runtime's own answer where it is coherent (Node 24.15+, Deno), else the OS on every call.
      { ...coldWorkerCwd(), chdir: refuseWorkerChdir, capabilities: { ...capabilities, cold: true } };

/** The cwd itself in shared memory, behind a seqlock: workers re-read it without a syscall. */
export const strategy = defineStrategy({
  specVersion: 1,
  name: 'mutex',
  description: 'The cwd in shared memory behind a seqlock built on Atomics; workers copy it out without a syscall.',
  create(): CwdProvider {
    return buildProvider({ strategy: 'mutex', capabilities, ...parts });
  },
});

/** A mutex CwdProvider: coherent across worker threads, which read the cwd without a syscall; as strategy.create(). */
export const createProvider = (): CwdProvider => strategy.create();
export default strategy;
