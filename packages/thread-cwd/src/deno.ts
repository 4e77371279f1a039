// Deno's kernel mode (Linux, --allow-ffi): a Deno worker's first chdir gives its own OS thread an fs_struct of its own
// with unshare(CLONE_FS), called through Deno.dlopen of libc; from then on Deno's own chdir moves that thread alone,
// and the kernel resolves every relative path of that thread against it: Deno.*, node:fs, Deno.Command, process.cwd.
// No cover: Deno has no handles mode. Where it cannot run (no --allow-ffi, unshare refused, no libc), `missing` says
// why, and index.ts keeps thread-cwd process-scoped there (install() in a worker refuses).
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
  isMainThread,
  osChdir,
  readOsCwd,
  threadState,
  tooLongForOs,
} from '@cwdkit/core';

type Pointer = object | null;
type NativeType = 'i32' | 'u64' | 'usize' | 'isize' | 'pointer' | 'buffer';
interface Symbol {
  parameters: NativeType[];
  result: NativeType;
  name?: string;
  nonblocking?: boolean;
  optional?: boolean;
}
interface DenoApi {
  pid: number;
  build: { os: string; arch: string };
  permissions: {
    querySync(descriptor: { name: string; variable?: string; path?: string }): { state: string };
    requestSync(descriptor: { name: string; path?: string }): { state: string };
  };
  env: { get(name: string): string | undefined };
  dlopen(path: string, symbols: Record<string, Symbol>): { symbols: Record<string, (...args: unknown[]) => unknown> };
  UnsafePointer: { value(pointer: Pointer): bigint; create(value: bigint): Pointer };
  UnsafePointerView: new (
    pointer: NonNullable<Pointer>,
  ) => { getCString(offset?: number): string; getInt32(offset?: number): number };
}
const deno = (globalThis as { Deno?: DenoApi }).Deno as DenoApi;

const CLONE_FS = 0x200;
const O_PATH = 0o10000000;
const O_DIRECTORY = 0o200000;
const O_CLOEXEC = 0o2000000;
const PTHREAD_MUTEX_ROBUST = 1;

// What every thread asks at load (which thread it is, whether unshare is allowed): few symbols, as each costs Deno
// ~0.25 ms to bind (~4 ms for the first dlopen of a thread, 13-190 ms for 20 on this loaded 2-core machine).
const PROBE = {
  gettid: { parameters: [], result: 'i32' },
  unshare: { parameters: ['i32'], result: 'i32' },
  pthread_create: { parameters: ['buffer', 'pointer', 'pointer', 'pointer'], result: 'i32' },
  pthread_join: { parameters: ['u64', 'buffer'], result: 'i32' },
  dlsym: { parameters: ['pointer', 'buffer'], result: 'pointer', optional: true },
  pthread_sigmask: { parameters: ['i32', 'buffer', 'buffer'], result: 'i32' },
  opendir: { parameters: ['buffer'], result: 'pointer' },
  readdir: { parameters: ['pointer'], result: 'pointer' },
  closedir: { parameters: ['pointer'], result: 'i32' },
} satisfies Record<string, Symbol>;
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
} satisfies Record<string, Symbol>;
type Probe = Record<keyof typeof PROBE, (...args: unknown[]) => unknown>;
type Libc = Record<keyof typeof CHDIR, (...args: unknown[]) => unknown>;

/** Why a Deno worker cannot have a cwd of its own here (undefined: it can), and whether this is the main thread. */
export interface DenoKernel {
  readonly missing: string | undefined;
  /** The process's main thread (its thread id is the pid): a deno test module's thread has a Window too. */
  readonly mainThread: boolean;
}

interface DenoState {
  /** unshare(CLONE_FS) ran on this thread: its fs_struct is its own (it cannot be undone). */
  unshared: boolean;
  /** The robust mutex this thread holds, on which its parked pool threads wait until it ends (or unloads). */
  mutex?: Pointer;
  /** Its pool threads parked there (a first chdir refused after some were parked leaves them there). */
  parked: Set<string>;
}
const state = threadState<DenoState>('thread-cwd.deno.v1', () => ({ unshared: false, parked: new Set() }));

/** The C library's name that opened, and its symbols for a chdir (bound at the first one). */
let libcName = 'libc.so.6';
let libc: Libc | undefined;
const calls = (): Libc => {
  libc ??= deno.dlopen(libcName, CHDIR).symbols as Libc;
  return libc;
};
// Made on first use: this module loads everywhere, vm contexts without TextEncoder included (index.ts refuses there).
let encoder: InstanceType<typeof TextEncoder> | undefined;
let decoder: InstanceType<typeof TextDecoder> | undefined;
const cString = (text: string) => {
  encoder ??= new TextEncoder();
  return encoder.encode(`${text}\0`);
};
const errnoName = (): string => {
  const code = new deno.UnsafePointerView(calls().__errno_location() as object).getInt32();
  return getSystemErrorName(-code);
};

/** libc through Deno.dlopen: glibc's name, then musl's; undefined (with the reasons) where neither opens. */
function openLibc(): Probe | string {
  const reasons: string[] = [];
  for (const name of ['libc.so.6', `libc.musl-${deno.build.arch}.so.1`]) {
    try {
      const { symbols } = deno.dlopen(name, PROBE);
      libcName = name;
      return symbols as Probe;
    } catch (error) {
      reasons.push(`${name}: ${(error as Error).message}`);
    }
  }
  return reasons.join('; ');
}

/** Whether `name` may be read without a prompt (a prompt would stop a test run). */
function envValue(name: string): string | undefined {
  try {
    if (deno.permissions.querySync({ name: 'env', variable: name }).state !== 'granted') return undefined;
    return deno.env.get(name);
  } catch {
    return undefined;
  }
}

/**
 * Whether unshare(CLONE_FS) is allowed, asked on a thread made for it (its start routine is unshare itself, its
 * argument the flag), so that no thread of the runtime changes: a seccomp filter refuses it (EPERM) in most containers.
 */
function unshareAllowed(probe: Probe): boolean {
  const unshare = probe.dlsym ? (probe.dlsym(null, cString('unshare')) as Pointer) : null;
  // No dlsym in this libc (glibc before 2.34 keeps it in libdl): unshare(0) changes nothing and meets the same filter.
  if (unshare === null) return probe.unshare(0) === 0;
  const thread = new BigUint64Array(1);
  const created = probe.pthread_create(new Uint8Array(thread.buffer), null, unshare, deno.UnsafePointer.create(0x200n));
  if (created !== 0) return false;
  const result = new BigInt64Array(1);
  probe.pthread_join(thread[0], new Uint8Array(result.buffer));
  return BigInt.asIntN(32, result[0] as bigint) === 0n;
}

/**
 * This worker's mark: one real-time signal (40-55, by thread id) that this thread blocks from load on. A signal mask
 * is inherited by the threads a thread starts, and readable in /proc/self/task/N/status (SigBlk), so its blocking pool
 * threads started from now on carry it: the first chdir finds by it those busy with an async call (not parked, see
 * leave()). The main thread is never marked; a Deno child process gets an empty mask (Rust's Command resets it).
 */
let marker: { signal: number; tid: number; inherited: bigint; early: Set<string> } | undefined;
function mark(probe: Probe, tid: number): void {
  const signal = 40 + (tid % 16);
  const set = new Uint8Array(128); // glibc's and musl's sigset_t are at least this long; the kernel reads 8 bytes
  set[(signal - 1) >> 3] = 1 << ((signal - 1) & 7);
  const before = new BigUint64Array(16); // the mask it had (from its maker): its early pool threads have that one
  if (probe.pthread_sigmask(0 /* SIG_BLOCK */, set, new Uint8Array(before.buffer)) !== 0) return;
  // Pool threads this worker started before thread-cwd loaded (to load its modules) have no mark: they are among the
  // threads started after this one and before now (so are any other thread's of that moment: leave() tells them apart).
  const early = new Set<string>();
  const dir = probe.opendir(cString('/proc/self/task')) as Pointer;
  if (dir !== null) {
    for (let entry = probe.readdir(dir) as Pointer; entry !== null; entry = probe.readdir(dir) as Pointer) {
      const name = new deno.UnsafePointerView(entry).getCString(19);
      if (Number(name) > tid) early.add(name);
    }
    probe.closedir(dir);
  }
  marker = { signal, tid, inherited: before[0] as bigint, early };
}

/** Asked once per thread, when thread-cwd loads on Deno. */
export function denoKernel(): DenoKernel {
  const missing = (reason: string): DenoKernel => ({ missing: reason, mainThread: isMainThread });
  if (deno.build.os !== 'linux') {
    return missing(`a Deno worker's own cwd needs Linux's unshare(2) (this is ${deno.build.os})`);
  }
  if (envValue('CWDKIT_THREAD_CWD_KERNEL') === '0') {
    return missing('CWDKIT_THREAD_CWD_KERNEL=0 asks for handles mode, which exists on Node only');
  }
  if (deno.permissions.querySync({ name: 'ffi' }).state !== 'granted') {
    return missing(
      'a Deno worker gets a cwd of its own only where thread-cwd may call unshare(2) through Deno.dlopen: run deno with --allow-ffi (or -A)',
    );
  }
  const core = (deno as unknown as Record<symbol, { core?: { unrefOpPromise?: unknown } }>)[
    (deno as unknown as { internal: symbol }).internal
  ]?.core;
  if (typeof core?.unrefOpPromise !== 'function') {
    return missing("this Deno has no core.unrefOpPromise, which thread-cwd needs to park a worker's pool threads");
  }
  const opened = openLibc();
  if (typeof opened === 'string')
    return missing(`thread-cwd could not open the C library through Deno.dlopen (${opened})`);
  const tid = opened.gettid() as number;
  const mainThread = tid === deno.pid;
  if (!unshareAllowed(opened)) {
    return {
      missing:
        "unshare(2) is refused here (a seccomp filter, as Docker's and CRI-O's default profiles have without CAP_SYS_ADMIN): a Deno worker cannot have a cwd of its own",
      mainThread,
    };
  }
  if (!mainThread) mark(opened, tid);
  return { missing: undefined, mainThread };
}

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
