import type { realpathSync } from 'node:fs';
import { chdirError, codedError, cwdError, hasCode } from './errors.js';
import { builtin, isMainThread, threadState } from './shared.js';

// The global, not a default import of node:process: in the CommonJS build esbuild would copy every property of
// `process` into an interop object at load (~4 ms of start-up on Node, ~8 ms on Bun), and an ESM import of
// node:process makes Node load everything behind its lazy getters. Read once, so hot code pays no global lookup.
const { process } = globalThis;

export type RuntimeName = 'node' | 'bun' | 'deno';

interface DenoNamespace {
  version: { deno: string };
  cwd(): string;
  chdir(directory: string | URL): void;
}

const globals = globalThis as typeof globalThis & { Deno?: DenoNamespace; Bun?: unknown };

/** The runtime this code runs on. */
export const runtime: RuntimeName =
  typeof globals.Deno?.version?.deno === 'string' ? 'deno' : globals.Bun !== undefined ? 'bun' : 'node';

export { isMainThread };

interface RuntimeOriginals {
  readonly processCwd: () => string;
  readonly processChdir: (directory: string) => void;
  readonly denoCwd?: () => string;
  readonly denoChdir?: (directory: string) => void;
}

/**
 * fs.realpathSync.native as it was when core first loaded on this thread: the OS read. A strategy that patches fs in
 * its thread (thread-cwd joins relative paths to the thread's cwd, on Node only) must not change what "ask the OS"
 * answers. On Deno, node:fs costs ~7 ms of start-up and Deno's reads never need it: loaded on first need there.
 */
const nodeRealpath = () => builtin<{ realpathSync: typeof realpathSync }>('node:fs').realpathSync.native;
const osRealpath: typeof realpathSync.native = threadState('realpath-native', () =>
  runtime === 'deno'
    ? (((...args: Parameters<typeof realpathSync.native>) => nodeRealpath()(...args)) as typeof realpathSync.native)
    : nodeRealpath(),
);

/**
 * The runtime's own cwd/chdir functions, captured once per thread before install() can swap them (trap 7).
 * Kept on globalThis so that an ESM and a CJS copy of this package share one capture.
 */
export const originals: RuntimeOriginals = threadState('originals', () =>
  Object.freeze({
    processCwd: process.cwd,
    processChdir: process.chdir,
    denoCwd: globals.Deno?.cwd,
    denoChdir: globals.Deno?.chdir,
  }),
);

const deno = runtime === 'deno' ? globals.Deno : undefined;
// The originals again, as constants of this module: on Deno a call through originals.denoCwd cost ~200 ns more than
// Deno.cwd() (~2 µs), a call through a constant does not.
const { processCwd, processChdir, denoCwd, denoChdir } = originals;

/**
 * `path`, a cwd as the runtime or an addon decoded it, unless its name is not UTF-8: Node, Bun and Node-API decode
 * such a name with U+FFFD, a string that names another directory, so that throws code EILSEQ (as Deno does). A name may
 * hold U+FFFD itself (it is valid UTF-8): a string with one is kept when its bytes are the OS's.
 */
export function checkCwdName(path: string): string {
  if (path.indexOf('\uFFFD') === -1 || namesCwd(path)) return path;
  throw cwdError('EILSEQ');
}

function namesCwd(path: string): boolean {
  try {
    return Buffer.from(path).equals(osRealpath('.', { encoding: 'buffer' }));
  } catch {
    return false; // Deno cannot read a name that is not UTF-8 either
  }
}

/** The last answer of the runtime's own process.cwd() that held no U+FFFD (so it needs no check while it lasts). */
let checkedCwd: string | undefined;

/**
 * The runtime's own answer, cached or not: Deno.cwd() on Deno, the original process.cwd() elsewhere; code EILSEQ
 * where the cwd's name is not UTF-8. The check costs one string comparison while the runtime returns the same path.
 */
export const runtimeCwd: () => string = deno
  ? denoReadCwd
  : () => {
      const path = processCwd.call(process);
      if (path === checkedCwd) return path;
      if (path.indexOf('\uFFFD') === -1) checkedCwd = path;
      else checkCwdName(path);
      return path;
    };

/** Linux refuses paths of PATH_MAX bytes or more; most other systems use 1024. */
const PATH_MAX = process.platform === 'linux' ? 4096 : 1024;

/** Whether the OS refuses `path` as too long (ENAMETOOLONG). UTF-8 takes at most 3 bytes per UTF-16 unit: most paths
 * skip the byte count (~30 ns of a ~2 µs chdir). */
export const tooLongForOs = (path: string): boolean =>
  path.length * 3 >= PATH_MAX && Buffer.byteLength(path) >= PATH_MAX;

function cwdForMessage(): string {
  try {
    return readOsCwd();
  } catch {
    return '';
  }
}

/** chdir(2) through bun:ffi, for the cwds Bun's own process.chdir cannot hold (longer than PATH_MAX). */
let bunRawChdir: ((directory: string) => void) | undefined;
/**
 * Whether the cwd is beyond what Bun's own cache can hold: every chdir goes through bunRawChdir until it is back.
 * Per thread, and shared by an ESM and a CJS copy of core (each would otherwise trust Bun's stale cache).
 */
const bun = threadState('bun-beyond', () => ({ beyond: false }));

interface BunFfi {
  dlopen(
    library: string,
    symbols: Record<string, { args: string[]; returns: string }>,
  ): { symbols: Record<string, (...args: unknown[]) => unknown> };
  ptr(view: Uint8Array): unknown;
  read: { i32(pointer: unknown, offset: number): number };
  CString: new (pointer: unknown) => { toString(): string };
}

/** errno values getcwd(3) reports, by number (Linux and macOS agree on these). */
const ERRNO: Record<number, string> = { 1: 'EPERM', 2: 'ENOENT', 13: 'EACCES', 34: 'ERANGE', 36: 'ENAMETOOLONG' };

/**
 * getcwd(3) from libc through bun:ffi. Bun's fs.realpathSync.native('.') opens the directory (openat + readlink:
 * ~5 µs, EMFILE when fds run out, a third path after a lazy unmount); getcwd needs no fd and has no length limit
 * when it allocates. Undefined where libc cannot be opened: the caller falls back to realpath.
 */
function bunGetcwd(): (() => string) | undefined {
  let ffi: BunFfi;
  let libc: ReturnType<BunFfi['dlopen']>;
  try {
    // getBuiltinModule, not createRequire(import.meta.url): a bundled strategy must not need either module system.
    ffi = (process as unknown as { getBuiltinModule(id: string): unknown }).getBuiltinModule('bun:ffi') as BunFfi;
    const errno = process.platform === 'darwin' ? '__error' : '__errno_location';
    const library = process.platform === 'darwin' ? 'libc.dylib' : 'libc.so.6';
    libc = ffi.dlopen(library, {
      getcwd: { args: ['ptr', 'usize'], returns: 'ptr' },
      chdir: { args: ['cstring'], returns: 'i32' },
      free: { args: ['ptr'], returns: 'void' },
      [errno]: { args: [], returns: 'ptr' },
    });
    libc.symbols.errno = libc.symbols[errno] as () => unknown;
  } catch {
    return undefined;
  }
  const { getcwd, free, errno } = libc.symbols as Record<string, (...args: unknown[]) => unknown>;
  const buffer = new Uint8Array(PATH_MAX);
  const pointer = ffi.ptr(buffer);
  const decoder = new TextDecoder();
  const fail = (): never => {
    const code = ERRNO[ffi.read.i32(errno?.(), 0)] ?? 'EIO';
    throw cwdError(code);
  };
  bunRawChdir = (directory) => {
    if (libc.symbols.chdir?.(ffi.ptr(Buffer.from(`${directory}\0`))) !== 0) fail();
  };
  return () => {
    if (getcwd?.(pointer, PATH_MAX)) return checkCwdName(decoder.decode(buffer.subarray(0, buffer.indexOf(0))));
    if (ffi.read.i32(errno?.(), 0) !== 34) fail();
    // ERANGE: longer than PATH_MAX. Let libc allocate as much as it needs.
    const allocated = getcwd?.(null, 0);
    if (!allocated) fail();
    try {
      return checkCwdName(new ffi.CString(allocated).toString());
    } finally {
      free?.(allocated);
    }
  };
}

const denoInvalidData = (deno as { errors?: { InvalidData?: abstract new () => unknown } } | undefined)?.errors
  ?.InvalidData;

function denoReadCwd(): string {
  try {
    return (denoCwd as () => string).call(deno);
  } catch (error) {
    // A directory name that is not UTF-8: Deno cannot represent it and throws InvalidData with no code.
    if (denoInvalidData && error instanceof denoInvalidData) throw cwdError('EILSEQ');
    if (hasCode(error)) throw cwdError(error.code, error.message.replace(/^\w+: /, '').split(',')[0]);
    throw error;
  }
}

function realpathCwd(): string {
  let path: string;
  try {
    path = osRealpath('.');
  } catch (error) {
    if (hasCode(error)) throw cwdError(error.code);
    throw error;
  }
  return checkCwdName(path);
}

/**
 * Ask the OS itself, never a runtime's cache (trap 2): on Node 20 and Bun the cached value of a worker can be stale.
 * Throws the runtime's own uv_cwd error (code ENOENT when the directory was deleted); a cwd whose name is not UTF-8
 * throws code EILSEQ (checkCwdName).
 */
export const readOsCwd: () => string = deno ? denoReadCwd : runtime === 'bun' ? bunReadCwd : realpathCwd;

/** The getcwd Bun's reads use, chosen on the first read: opening libc through bun:ffi at load cost ~4 ms of start-up. */
let bunRead: (() => string) | undefined;
function bunReadCwd(): string {
  openBunLibc();
  return (bunRead as () => string)();
}

/** Opens libc for this copy of core (it sets bunRawChdir); whether it opened. */
function openBunLibc(): boolean {
  bunRead ??= bunGetcwd() || realpathCwd;
  return bunRawChdir !== undefined;
}

/**
 * The cwd right after this thread's own successful osChdir: the runtime refreshes its cache inside its own chdir on
 * the main thread, so reusing it costs what the runtime's own chdir + cwd pair costs, and fills the runtime's cache
 * too. Undefined when the directory is already gone (the next read then gives ENOENT).
 */
export function cwdAfterChdir(): string | undefined {
  try {
    return isMainThread && !bun.beyond ? runtimeCwd() : readOsCwd();
  } catch {
    return undefined;
  }
}

/**
 * Change the process cwd with the runtime's original chdir. Failures throw Node's error shape and leave the cwd as
 * it was; on Node and Bun a worker gets the runtime's own refusal (ERR_WORKER_UNSUPPORTED_OPERATION) for every
 * argument, '' and over-long paths included.
 * The caller has already run checkDirectory().
 */
export function osChdir(directory: string): void {
  // Node and Bun refuse chdir in a worker whatever the argument: the refusal comes before any answer of ours.
  if (!isMainThread && runtime !== 'deno') refuseWorkerChdir(directory);
  // The kernel's answers, given before Bun can turn them into errors without a code.
  if (directory === '') throw chdirError('ENOENT', cwdForMessage(), directory);
  if (tooLongForOs(directory)) {
    throw chdirError('ENAMETOOLONG', cwdForMessage(), directory);
  }
  if (!deno) {
    if (bun.beyond) {
      bunLongChdir(directory);
      return;
    }
    try {
      runtimeChdir(directory);
    } catch (error) {
      // Bun refuses to enter a cwd longer than PATH_MAX (ERANGE from its own getcwd, before moving); the OS does not.
      if (!(runtime === 'bun' && hasCode(error) && error.code === 'ERANGE' && openBunLibc())) throw error;
      bunLongChdir(directory);
    }
    return;
  }
  try {
    (denoChdir as (directory: string) => void).call(deno, directory);
  } catch (error) {
    if (!hasCode(error)) throw error;
    throw chdirError(error.code, cwdForMessage(), directory);
  }
}

/** Set while osChdir calls through process.chdir (runtimeChdir); shared by every copy of core. */
const through = threadState('chdir-through', () => ({ active: false }));

/**
 * Whether this thread's osChdir is calling through process.chdir right now: cwdkit's own layers in that chain
 * (install()'s process.chdir, and the cwdkit/register stub, which forwards to it) then call what they replaced, so that
 * the chdir happens once, in the runtime's own function, without the provider hearing of it.
 */
export const chdirThroughRuntime = (): boolean => through.active;

/** Whether Node's worker_threads has loaded on this thread (it never unloads): checked until it has. */
let workersLoaded = false;
function nodeWorkersLoaded(): boolean {
  if (workersLoaded) return true;
  const loaded = (process as { moduleLoadList?: readonly string[] }).moduleLoadList;
  workersLoaded = !Array.isArray(loaded) || loaded.includes('NativeModule internal/worker');
  return workersLoaded;
}

/**
 * The runtime's chdir on the main thread. Node's worker_threads, when it loads, wraps process.chdir to bump the
 * counter every worker's cached process.cwd() follows (lib/internal/worker.js), and core may have captured the
 * function before that: so once worker_threads is loaded, the chdir goes through process.chdir as it is now, Node's
 * wrapper and any other (graceful-fs, whose cached process.cwd() is cleared there) included, with cwdkit's own layers
 * stepping aside (chdirThroughRuntime). A chdir nested in that call (a wrapper that calls a provider) is the original.
 */
function runtimeChdir(directory: string): void {
  const current = process.chdir;
  if (runtime !== 'node' || through.active || current === processChdir || !nodeWorkersLoaded()) {
    processChdir.call(process, directory);
    return;
  }
  through.active = true;
  try {
    current.call(process, directory);
  } finally {
    through.active = false;
  }
}

/** chdir beyond Bun's reach; once back under PATH_MAX, Bun's own chdir takes over again and its cache is right. */
function bunLongChdir(directory: string): void {
  openBunLibc();
  try {
    (bunRawChdir as (directory: string) => void)(directory);
  } catch (error) {
    throw hasCode(error) ? chdirError(error.code, cwdForMessage(), directory) : error;
  }
  const now = readOsCwd();
  bun.beyond = Buffer.byteLength(now) >= PATH_MAX;
  if (!bun.beyond) processChdir.call(process, now);
}

/**
 * chdir in a worker, for a strategy whose cache only the main thread may change: Node and Bun refuse with their own
 * error; Deno would let the worker chdir behind the main thread's cache, so it gets the same refusal from us (in a
 * web Worker as in a worker_threads one). Every directory gets the refusal, '' and over-long paths too.
 */
export function refuseWorkerChdir(directory: string): never {
  // The runtime's own chdir, not osChdir: its early answers ('' → ENOENT) would come before the refusal.
  if (runtime !== 'deno') processChdir.call(process, directory);
  throw codedError(new TypeError('process.chdir() is not supported in workers'), 'ERR_WORKER_UNSUPPORTED_OPERATION');
}

/** Node ≥ 24.15 (and 26) bumps its workers' cwd counter after the chdir (nodejs/node#61664); 20 and 22 before it. */
function nodeWorkerCacheFixed(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major >= 26 || (major === 24 && minor >= 15);
}

/**
 * Whether the runtime's own cwd in a worker follows every chdir the main thread made before the read started:
 * Deno asks the OS on every call; Node's worker cache is coherent where nodejs/node#61664 is in (24.15+, 26+), racy
 * before it (20, 22: the counter was bumped before the chdir). Bun's workers never see a main-thread chdir.
 */
export const runtimeWorkerCwdCoherent: boolean =
  runtime === 'deno' || (runtime === 'node' && nodeWorkerCacheFixed(process.versions.node ?? ''));

/**
 * cwd() and invalidate() for a cold worker: one that found none of its strategy's shared memory (its main thread
 * had not loaded the strategy when the worker started). Where the runtime's own worker cwd is coherent, that
 * (Node 24.15+: a cached string, as fast as process.cwd() because it is process.cwd(), EILSEQ-checked as runtimeCwd); elsewhere the OS on every
 * call (trap 2). After invalidate() the OS is asked (trap 5: ENOENT once the directory is gone) until the runtime's
 * answer agrees with it again: a chdir(2) behind Node's back is only seen after invalidate(), as 'never' promises.
 */
export function coldWorkerCwd(): { cwd: () => string; invalidate: () => void } {
  if (deno || !runtimeWorkerCwdCoherent) return { cwd: readOsCwd, invalidate() {} };
  let distrust = false;
  const untilAgreed = (): string => {
    const cwd = readOsCwd();
    try {
      distrust = runtimeCwd() !== cwd;
    } catch {
      // the runtime cannot read it: keep asking the OS
    }
    return cwd;
  };
  return {
    cwd: () => (distrust ? untilAgreed() : runtimeCwd()),
    invalidate() {
      distrust = true;
    },
  };
}

/** Set by cwdkit/register before it loads the strategy (deferSharedMemory): shared by every copy of core. */
const deferral = threadState('defer-shared-memory', () => ({ requested: false }));

/**
 * Asks the strategies loaded from now on in this thread to create their shared memory for workers on first need
 * instead of when they load, where that is safe (see sharedMemoryTiming). cwdkit/register calls it: creating the
 * memory loads worker_threads (~2.5 ms of Node's start-up, ~5 ms of Deno's), paid by every process under the flag.
 */
export function deferSharedMemory(): void {
  deferral.requested = true;
}

/**
 * When the main thread creates a strategy's shared memory (sharedMemory()) for the workers it starts; a worker
 * started before that is cold (coldWorkerCwd).
 * - 'load': when the strategy loads. Always unless deferSharedMemory() was called, and on Bun and Node 20/22, where
 *   a cold worker asks the OS on every call.
 * - 'first-read': the first cwd(), chdir() or invalidate(). Deno: a cold worker asks Deno.cwd(), which is coherent.
 * - 'first-chdir': the first chdir() or invalidate(). Node 24.15+: a cold worker's own process.cwd() is coherent and
 *   as fast as the cache, and Node's module loader itself reads the cwd right after the preload (a first read would
 *   come in every start-up).
 */
export function sharedMemoryTiming(): 'load' | 'first-read' | 'first-chdir' {
  if (!deferral.requested || !isMainThread) return 'load';
  return runtime === 'deno' ? 'first-read' : runtimeWorkerCwdCoherent ? 'first-chdir' : 'load';
}
