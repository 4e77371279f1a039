// What a Deno thread asks before the rest of thread-cwd loads: whether kernel mode can run (Linux, --allow-ffi,
// unshare(2) allowed), which thread this is, and this worker's mark (see mark()). The setup entry asks it at a worker's
// start (denoKernel(); early.ts's denoSettle decides) and defers the rest to the first chdir; deno.ts asks it when the
// index loads. It uses Deno.* alone (node:fs would cost a web Worker 6-13 ms more) and imports nothing: a file of its
// own beside the entry, which a Node worker then does not parse.
//
// What it finds is kept in one slot of the thread (globalThis on Deno): the setup entry's copy of this file and the
// index's then agree, and the mark is made once.
export type Pointer = object | null;
type NativeType = 'i32' | 'u64' | 'usize' | 'isize' | 'pointer' | 'buffer';
export interface NativeSymbol {
  parameters: NativeType[];
  result: NativeType;
  name?: string;
  nonblocking?: boolean;
  optional?: boolean;
}
export interface DenoApi {
  pid: number;
  build: { os: string; arch: string };
  permissions: {
    querySync(descriptor: { name: string; variable?: string; path?: string }): { state: string };
    requestSync(descriptor: { name: string; path?: string }): { state: string };
  };
  env: { get(name: string): string | undefined };
  cwd(): string;
  chdir(directory: string): void;
  dlopen(
    path: string,
    symbols: Record<string, NativeSymbol>,
  ): { symbols: Record<string, (...args: unknown[]) => unknown> };
  UnsafePointer: { value(pointer: Pointer): bigint; create(value: bigint): Pointer };
  UnsafePointerView: new (
    pointer: NonNullable<Pointer>,
  ) => { getCString(offset?: number): string; getInt32(offset?: number): number };
}
export const deno = (globalThis as { Deno?: DenoApi }).Deno as DenoApi;

// What every thread asks at load (which thread it is, whether unshare is allowed): few symbols, as each costs Deno
// ~0.25 ms to bind (~2-4 ms for the first dlopen of a thread, 13-190 ms for 20 on this loaded 2-core machine).
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
} satisfies Record<string, NativeSymbol>;
type Probe = Record<keyof typeof PROBE, (...args: unknown[]) => unknown>;

/** Why a Deno worker cannot have a cwd of its own here (undefined: it can), and whether this is the main thread. */
export interface DenoKernel {
  readonly missing: string | undefined;
  /** The process's main thread (its thread id is the pid): a deno test module's thread has a Window too. */
  readonly mainThread: boolean;
}

/** A worker's mark: the signal it blocks, its thread id, the mask it had, and its pool threads started before. */
export interface Marker {
  readonly signal: number;
  readonly tid: number;
  readonly inherited: bigint;
  readonly early: ReadonlySet<string>;
}

/** What this thread found, once the C library opened: kept in the thread's slot. */
interface Found {
  readonly kernel: DenoKernel;
  /** The C library's name that opened (glibc's or musl's): deno.ts binds its chdir calls there. */
  readonly libcName: string;
  readonly marker: Marker | undefined;
}
const FOUND = Symbol.for('cwdkit.thread-cwd.deno-kernel.v1');
const slots = globalThis as unknown as { [FOUND]?: Found };

// Made on first use: this module loads everywhere, vm contexts without TextEncoder included (index.ts refuses there).
let encoder: InstanceType<typeof TextEncoder> | undefined;
export const cString = (text: string): Uint8Array => {
  encoder ??= new TextEncoder();
  return encoder.encode(`${text}\0`);
};

/** libc through Deno.dlopen: glibc's name, then musl's; where neither opens, the reasons. */
function openLibc(): { name: string; probe: Probe } | string {
  const reasons: string[] = [];
  for (const name of ['libc.so.6', `libc.musl-${deno.build.arch}.so.1`]) {
    try {
      return { name, probe: deno.dlopen(name, PROBE).symbols as Probe };
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
 * This worker's mark: one real-time signal (40-55, by thread id) that this thread blocks from now on. A signal mask
 * is inherited by the threads a thread starts, and readable in /proc/self/task/N/status (SigBlk), so its blocking pool
 * threads started from now on carry it: the first chdir finds by it those busy with an async call (not parked, see
 * deno.ts leave()). The main thread is never marked; a Deno child process gets an empty mask (Rust's Command resets
 * it). Made as early as the worker loads the setup entry (or the index): a pool thread started before has no mark.
 */
function mark(probe: Probe, tid: number): Marker | undefined {
  const signal = 40 + (tid % 16);
  const set = new Uint8Array(128); // glibc's and musl's sigset_t are at least this long; the kernel reads 8 bytes
  set[(signal - 1) >> 3] = 1 << ((signal - 1) & 7);
  const before = new BigUint64Array(16); // the mask it had (from its maker): its early pool threads have that one
  if (probe.pthread_sigmask(0 /* SIG_BLOCK */, set, new Uint8Array(before.buffer)) !== 0) return undefined;
  // Pool threads this worker started before (to load its modules) have no mark: they are among the threads started
  // after this one and before now (so are any other thread's of that moment: leave() tells them apart).
  const early = new Set<string>();
  const dir = probe.opendir(cString('/proc/self/task')) as Pointer;
  if (dir !== null) {
    for (let entry = probe.readdir(dir) as Pointer; entry !== null; entry = probe.readdir(dir) as Pointer) {
      const name = new deno.UnsafePointerView(entry).getCString(19);
      if (Number(name) > tid) early.add(name);
    }
    probe.closedir(dir);
  }
  return { signal, tid, inherited: before[0] as bigint, early };
}

/**
 * Asked once per thread (kept once the C library opened). `isMainThread` answers for a thread that cannot tell by its
 * thread id (no --allow-ffi, no libc).
 */
export function denoKernel(isMainThread: () => boolean): DenoKernel {
  const kept = slots[FOUND];
  if (kept !== undefined) return kept.kernel;
  const missing = (reason: string): DenoKernel => ({ missing: reason, mainThread: isMainThread() });
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
  if (typeof opened === 'string') {
    return missing(`thread-cwd could not open the C library through Deno.dlopen (${opened})`);
  }
  const { name, probe } = opened;
  const tid = probe.gettid() as number;
  const mainThread = tid === deno.pid;
  const found: Found = unshareAllowed(probe)
    ? { kernel: { missing: undefined, mainThread }, libcName: name, marker: mainThread ? undefined : mark(probe, tid) }
    : {
        kernel: {
          missing:
            "unshare(2) is refused here (a seccomp filter, as Docker's and CRI-O's default profiles have without CAP_SYS_ADMIN): a Deno worker cannot have a cwd of its own",
          mainThread,
        },
        libcName: name,
        marker: undefined,
      };
  slots[FOUND] = found;
  return found.kernel;
}

/** This thread's mark (undefined: none) and its C library's name, as denoKernel() found them. */
export const found = (): Pick<Found, 'libcName' | 'marker'> =>
  slots[FOUND] ?? { libcName: 'libc.so.6', marker: undefined };
