// Deno's kernel mode (Linux, --allow-ffi): a Deno worker's first chdir gives its own OS thread an fs_struct of its own
// with unshare(CLONE_FS), called through Deno.dlopen of libc; from then on Deno's own chdir moves that thread alone,
// and the kernel resolves every relative path of that thread against it: Deno.*, node:fs, Deno.Command, process.cwd.
// No cover: Deno has no handles mode. Where it cannot run (no --allow-ffi, unshare refused, no libc), denoKernel()
// (deno-early.ts, which the setup entry runs at a worker's start) says why, and index.ts keeps thread-cwd
// process-scoped there (install() in a worker refuses).
//
// Deno runs a worker's async calls (Deno.stat, node:fs callbacks and promises, streams) on that worker's own tokio
// blocking pool, whose threads are started by the worker's thread and share the fs_struct it had then. Threads
// started before the first chdir (a web Worker's module loading starts one; any async call before the chdir may)
// would keep the process cwd after the unshare: the first chdir parks them for the worker's life (leave()), so that
// the pool starts new threads, which share the worker's own fs_struct. The main thread never unshares: its pool, V8's
// threads and every worker that never chdir'd keep sharing the process's.
import { getSystemErrorName } from 'node:util';
import {
  buildProvider,
  type CwdCapabilities,
  type CwdProvider,
  chdirError,
  codedError,
  osChdir,
  readOsCwd,
  threadState,
  tooLongForOs,
} from '@cwdkit/core';
import { cString, deno, found, type NativeSymbol, type Pointer } from './deno-early.js';

export { type DenoKernel, denoKernel } from './deno-early.js';

const CLONE_FS = 0x200;
const O_PATH = 0o10000000;
const O_DIRECTORY = 0o200000;
const O_CLOEXEC = 0o2000000;
const PTHREAD_MUTEX_ROBUST = 1;

// What a worker's first chdir needs, bound then.
const CHDIR = {
  unshare: { parameters: ['i32'], result: 'i32' },
  __errno_location: { parameters: [], result: 'pointer' },
  open: { parameters: ['buffer', 'i32'], result: 'i32' },
  read: { parameters: ['i32', 'buffer', 'usize'], result: 'isize' },
  close: { parameters: ['i32'], result: 'i32' },
  chdir: { parameters: ['buffer'], result: 'i32' },
  opendir: { parameters: ['buffer'], result: 'pointer' },
  readdir: { parameters: ['pointer'], result: 'pointer' },
  closedir: { parameters: ['pointer'], result: 'i32' },
  malloc: { parameters: ['usize'], result: 'pointer' },
  pthread_mutexattr_init: { parameters: ['pointer'], result: 'i32' },
  pthread_mutexattr_setrobust: { parameters: ['pointer', 'i32'], result: 'i32' },
  pthread_mutex_init: { parameters: ['pointer', 'pointer'], result: 'i32' },
  pthread_mutex_lock: { parameters: ['pointer'], result: 'i32' },
  pthread_mutex_unlock: { parameters: ['pointer'], result: 'i32' },
  // The same lock, run on this thread's blocking pool: the pool thread that takes it waits there (see leave()).
  park: { name: 'pthread_mutex_lock', parameters: ['pointer'], result: 'i32', nonblocking: true },
} satisfies Record<string, NativeSymbol>;
type Libc = Record<keyof typeof CHDIR, (...args: unknown[]) => unknown>;

interface DenoState {
  /** unshare(CLONE_FS) ran on this thread: its fs_struct is its own (it cannot be undone). */
  unshared: boolean;
  /** The robust mutex this thread holds, on which its parked pool threads wait until it ends (or unloads). */
  mutex?: Pointer;
  /** Its pool threads parked there (a first chdir refused after some were parked leaves them there). */
  parked: Set<string>;
}
const state = threadState<DenoState>('thread-cwd.deno.v1', () => ({ unshared: false, parked: new Set() }));

/** The C library's symbols for a chdir (bound at the first one), where denoKernel() opened it. */
let libc: Libc | undefined;
const calls = (): Libc => {
  libc ??= deno.dlopen(found().libcName, CHDIR).symbols as Libc;
  return libc;
};
let decoder: InstanceType<typeof TextDecoder> | undefined;
const errnoName = (): string => {
  const code = new deno.UnsafePointerView(calls().__errno_location() as object).getInt32();
  return getSystemErrorName(-code);
};

/** Text of a small /proc file (libc: --allow-ffi is enough), or undefined. */
let procBuffer: Uint8Array | undefined;
function readProc(path: string): string | undefined {
  procBuffer ??= new Uint8Array(4096); // a task's status is ~1.5 kB
  decoder ??= new TextDecoder();
  const c = calls();
  const fd = c.open(cString(path), O_CLOEXEC) as number;
  if (fd < 0) return undefined;
  try {
    const length = Number(c.read(fd, procBuffer, BigInt(procBuffer.length)));
    return length < 0 ? undefined : decoder.decode(procBuffer.subarray(0, length));
  } finally {
    c.close(fd);
  }
}

/** The process's thread ids. */
function threads(): string[] {
  const c = calls();
  const dir = c.opendir(cString('/proc/self/task')) as Pointer;
  if (dir === null)
    throw codedError(
      new Error(`thread-cwd: cannot list /proc/self/task (${errnoName()})`),
      'ERR_CWDKIT_UNSHARE_FAILED',
    );
  const ids: string[] = [];
  try {
    for (let entry = c.readdir(dir) as Pointer; entry !== null; entry = c.readdir(dir) as Pointer) {
      const name = new deno.UnsafePointerView(entry).getCString(19); // struct dirent's d_name (glibc and musl, 64-bit)
      if (name.charCodeAt(0) !== 46) ids.push(name);
    }
  } finally {
    c.closedir(dir);
  }
  return ids;
}

const SYS_FUTEX = deno?.build.arch === 'aarch64' ? 98 : 202;
/** epoll_wait, epoll_pwait, epoll_pwait2 (aarch64 has no epoll_wait). */
const EPOLL_WAITS = deno?.build.arch === 'aarch64' ? [22, 441] : [232, 281, 441];
let pause: Int32Array | undefined;

/**
 * Parks every idle thread of this thread's blocking pool, then unshares. Each park is a pthread_mutex_lock on a robust
 * mutex this thread holds, run on the pool: an idle pool thread takes it, or, where none is idle, the pool starts a new
 * one (tokio starts one only then). So parks are sent one at a time, each waited for in /proc (the thread blocked in
 * futex on the mutex), until one lands on a thread that did not exist before it was sent. The parked threads wait
 * until this thread ends (the kernel releases a robust mutex whose owner died) or unloads; their calls are unref'd, so
 * the event loop does not wait for them. A pool thread busy with an async call at this moment is waited for
 * (waitForBusy()).
 */
function leave(): void {
  const c = calls();
  if (state.mutex === undefined) {
    const mutex = c.malloc(64n) as Pointer; // never freed: a parked thread may wait on it after this isolate died
    const attributes = c.malloc(16n) as Pointer;
    c.pthread_mutexattr_init(attributes);
    c.pthread_mutexattr_setrobust(attributes, PTHREAD_MUTEX_ROBUST);
    c.pthread_mutex_init(mutex, attributes);
    c.pthread_mutex_lock(mutex);
    state.mutex = mutex;
  }
  const low = deno.UnsafePointer.value(state.mutex);
  const onMutex = (id: string): boolean => {
    const [number, address] = (readProc(`/proc/self/task/${id}/syscall`) ?? '').split(' ');
    if (Number(number) !== SYS_FUTEX || address === undefined) return false;
    const at = BigInt(address);
    return at >= low && at < low + 64n;
  };
  const unref = (deno as unknown as Record<symbol, { core: { unrefOpPromise(promise: unknown): void } }>)[
    (deno as unknown as { internal: symbol }).internal
  ]?.core.unrefOpPromise as (promise: unknown) => void;
  const parked = state.parked;
  /** Parks until one lands on a thread the pool started for it: every idle thread of this pool is then parked. */
  const round = (): void => {
    for (;;) {
      const before = new Set(threads());
      const promise = c.park(state.mutex) as Promise<number>;
      promise.catch(() => {});
      unref(promise);
      let taken: string | undefined;
      const start = performance.now();
      while (taken === undefined) {
        taken = threads().find((id) => !parked.has(id) && onMutex(id));
        if (taken !== undefined) break;
        // Bounded, so that a pool that never takes it cannot hang the chdir: minutes on a loaded machine are no answer.
        if (performance.now() - start > 60_000) {
          throw codedError(
            new Error("thread-cwd: this Deno worker's blocking pool did not take a park within 60 s"),
            'ERR_CWDKIT_UNSHARE_FAILED',
          );
        }
        pause ??= new Int32Array(new SharedArrayBuffer(4));
        Atomics.wait(pause, 0, 0, 0.05);
      }
      parked.add(taken);
      if (!before.has(taken)) break; // the pool started a thread for it: none of the old ones was idle
    }
  };
  round();
  waitForBusy(parked, round);
  if (c.unshare(CLONE_FS) !== 0) {
    throw codedError(
      new Error(
        `thread-cwd: unshare(CLONE_FS) failed on this thread (${errnoName()}) after it was allowed on a test thread`,
      ),
      'ERR_CWDKIT_UNSHARE_FAILED',
    );
  }
  state.unshared = true;
  // A deno test module runs on a thread of the main runtime's pool that runs the next module too: it goes back.
  (globalThis as unknown as EventTarget).addEventListener?.('unload', () => {
    toProcessCwd();
    if (state.mutex) c.pthread_mutex_unlock(state.mutex);
  });
}

/** How long a first chdir waits for this worker's async calls in flight before it refuses (they may never end). */
const IN_FLIGHT_MS = 3_000;

/**
 * A pool thread busy with an async call at the first chdir is not parked: once done, it would answer later async calls
 * from the process cwd. Those threads carry this worker's mark (mark()): waits until each is idle, then parks it (a
 * round parks every idle thread of this pool; a marked idle thread a round leaves is another pool's: a worker started
 * here, or one whose mark is the same). Where they stay busy, refuses before anything moves.
 */
function waitForBusy(parked: Set<string>, round: () => void): void {
  const { marker } = found();
  if (marker === undefined) return;
  const bit = 1n << BigInt(marker.signal - 1);
  const self = String(marker.tid);
  const others = new Set<string>();
  const start = performance.now();
  for (;;) {
    const busy: string[] = [];
    const idle: string[] = [];
    for (const id of threads()) {
      if (id === self || parked.has(id) || others.has(id)) continue;
      const status = readProc(`/proc/self/task/${id}/status`) ?? '';
      const blocked = /\nSigBlk:\s*([0-9a-f]+)/.exec(status)?.[1];
      if (blocked === undefined || !/^Name:\s*tokio-runtime/.test(status)) continue; // a worker's own thread
      // Its mask is exactly this thread's (started by it since the mark), or its maker's (started by it before).
      const mask = BigInt(`0x${blocked}`);
      if (mask !== (marker.inherited | bit) && !(marker.early.has(id) && mask === marker.inherited)) continue;
      const call = Number((readProc(`/proc/self/task/${id}/syscall`) ?? '').split(' ')[0]);
      // Waiting in epoll: a runtime's own thread (a deno test module runs on one), never a blocking call.
      if (EPOLL_WAITS.includes(call)) continue;
      (call === SYS_FUTEX ? idle : busy).push(id);
    }
    if (busy.length === 0) {
      if (idle.length === 0) return;
      round();
      for (const id of idle) if (!parked.has(id)) others.add(id);
      continue;
    }
    if (performance.now() - start > IN_FLIGHT_MS) {
      throw codedError(
        new Error(
          `thread-cwd: this Deno worker's first chdir found ${busy.length} async call(s) still running after ${IN_FLIGHT_MS / 1000} s; their threads would answer later async calls from the process cwd, so the chdir is refused and nothing moved: await async work before a worker's first chdir`,
        ),
        'ERR_CWDKIT_ASYNC_IN_FLIGHT',
      );
    }
    pause ??= new Int32Array(new SharedArrayBuffer(4));
    Atomics.wait(pause, 0, 0, 1);
  }
}

/** This thread (its fs_struct its own) into the process's cwd of now; where that fails, it stays where it is. */
function toProcessCwd(): void {
  calls().chdir(cString('/proc/self/cwd'));
}

/**
 * What chdir(2) would refuse, refused before the first chdir unshares: a failed first chdir changes nothing, and the
 * worker keeps following the process cwd. Opens it as chdir walks it, then its search permission (a walk through ".").
 */
function refusal(directory: string): string | undefined {
  const c = calls();
  const fd = c.open(cString(directory), O_PATH | O_DIRECTORY | O_CLOEXEC) as number;
  if (fd < 0) return errnoName();
  try {
    const inside = c.open(cString(`/proc/self/fd/${fd}/.`), O_PATH | O_CLOEXEC) as number;
    if (inside < 0) return errnoName();
    c.close(inside);
    return undefined;
  } finally {
    c.close(fd);
  }
}

function cwdForMessage(): string {
  try {
    return readOsCwd();
  } catch {
    return '';
  }
}

/**
 * Whether Deno lets this thread read `directory` (what its chdir checks), asked before the first chdir unshares, so
 * that one Deno refuses changes nothing: --allow-read for other paths, or --deny-read. Where Deno would ask (a
 * terminal, 'prompt'), it asks here, before anything moves, the question its chdir would ask.
 */
function readAllowed(directory: string): boolean {
  const descriptor = { name: 'read', path: directory };
  const { state } = deno.permissions.querySync(descriptor);
  if (state === 'granted') return true;
  return state === 'prompt' && deno.permissions.requestSync(descriptor).state === 'granted';
}

function chdir(directory: string): void {
  // '' and over-long paths: osChdir answers them before anything moves; so does Deno's permission refusal.
  if (!state.unshared && directory !== '' && !tooLongForOs(directory) && readAllowed(directory)) {
    const code = refusal(directory);
    if (code !== undefined) throw chdirError(code, cwdForMessage(), directory);
    leave();
  }
  osChdir(directory); // Deno's own chdir: this thread alone moves
}

/**
 * A Deno worker's provider: its cwd is the kernel's for its thread (Deno.cwd(), asked each time), its chdir Deno's
 * own once the thread's fs_struct is its own. Until its first chdir the worker shares the process's, and so follows
 * the main thread's chdirs; a worker it starts shares its own, and follows it until that worker's first chdir.
 */
export function denoWorkerProvider(capabilities: CwdCapabilities): CwdProvider {
  return buildProvider({
    strategy: 'thread-cwd',
    capabilities,
    cwd: readOsCwd,
    chdir,
    invalidate() {},
    install() {
      // Nothing to cover: cwdkit's install() puts this provider behind process.cwd/chdir, path.resolve and Deno.cwd/chdir.
      return () => {
        // Its fs_struct stays its own: it goes where the process is now, and a later Deno.chdir moves it alone.
        if (state.unshared) toProcessCwd();
      };
    },
  });
}
