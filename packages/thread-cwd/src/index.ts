import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';
import {
  buildProvider,
  type CwdCapabilities,
  type CwdProvider,
  chdirError,
  codedError,
  cwdError,
  defineStrategy,
  hasCode,
  isMainThread,
  runtime,
  tooLongForOs,
} from '@cwdkit/core';
import { createProvider as createProcessCwd } from '@cwdkit/sab-atomics';
import { followBunCwd, recordHandle } from './bun.js';
import { cover } from './cover.js';
import { type DenoKernel, denoKernel, denoWorkerProvider } from './deno.js';
import { intoDeletedDirectory, kernelCalls, kernelChdir, noKernelCalls, type ThreadCwdMode } from './kernel.js';
import { deferredHere, HANDOFF, PRIVATE_FS } from './routes.js';
import {
  fsOriginals,
  handlePath,
  hold,
  makeOwn,
  type Own,
  processCwdLink,
  retire,
  state,
  verify,
  viaHandle,
} from './state.js';
import { coverWorkers } from './workers.js';

export { type Enumerated, enumerate, takesNoPath, uncovered } from './cover.js';
export type { ThreadCwdMode } from './kernel.js';
export { coveredFunctions } from './surface.js';

// The builtins by process.getBuiltinModule, not default imports: in the CommonJS build each default import copies the
// module's every property (esbuild's __toESM), ~1.2 ms of a worker's first chdir for fs and process (issue #28 item 5).
const fs = process.getBuiltinModule('node:fs');

// The originals, taken before install() can cover them (trap 7): this module's own calls never go through the cover.
const { closeSync, fstatSync, openSync, readlinkSync, statSync } = fsOriginals;

/** Linux open(2)'s O_PATH: a handle on the directory itself that needs no read permission, as a cwd needs none. */
const O_PATH = 0o10000000;

/**
 * Whether this copy was compiled in a vm context (vitest's pools 'vmThreads' and 'vmForks', a test runner's own realm):
 * the objects Node made are then another realm's (process.versions, fs's functions). Code there takes its builtins
 * from copies the cover cannot reach (vitest's ESM named imports of node:fs are its own module objects, which
 * syncBuiltinESMExports does not update), and this copy's state on that context's globalThis is not the thread's:
 * relative paths would silently use the process cwd. So install() refuses there, on every thread.
 */
const vmContext =
  Object.getPrototypeOf(process.versions) !== Object.prototype || !(fs.readFileSync instanceof Function);

/** Deno: kernel mode through Deno.dlopen (deno.ts), or why not; and which thread is the process's main one. */
const denoMode: DenoKernel | undefined = runtime === 'deno' && !vmContext ? denoKernel(() => isMainThread) : undefined;
/** Not worker_threads' answer alone: a Deno web Worker says true there, and a deno test module has a Window. */
const mainThread = denoMode ? denoMode.mainThread : isMainThread;

/**
 * A per-thread cwd needs what only Node on Linux gives here: workers whose fs, child_process and Worker can all be
 * covered, and /proc/self/fd to reach a directory by its handle (a deleted or moved one, as the kernel does); or, on
 * Deno, the kernel's own per-thread cwd through Deno.dlopen (deno.ts: Linux, --allow-ffi, unshare(2) allowed).
 * Elsewhere thread-cwd is a coherent process-scope strategy, and install() in a worker (or a vm context) refuses:
 * never a partial cover.
 */
const missing = vmContext
  ? "code in a vm context (vitest's pools 'vmThreads' and 'vmForks') imports copies of the builtin modules that thread-cwd cannot cover, so its relative paths would use the process cwd: use vitest's pool 'threads' (or 'forks')"
  : runtime === 'bun'
    ? bunMissing()
    : denoMode
      ? denoMode.missing
      : process.platform !== 'linux'
        ? `a per-thread cwd needs Linux's /proc/self/fd (this is ${process.platform})`
        : !fs.existsSync('/proc/self/fd')
          ? 'a per-thread cwd needs /proc/self/fd, and /proc is not mounted here'
          : undefined;
const threadScoped = missing === undefined;

/**
 * Bun: kernel mode only (its own APIs, Bun.spawn and Bun.$ among them, follow the kernel's per-thread cwd, and no
 * handle cover reaches them), so on Linux where @cwdkit/native's addon loads and unshare(CLONE_FS) is allowed.
 */
function bunMissing(): string | undefined {
  if (process.platform !== 'linux')
    return `a Bun worker's own cwd needs Linux's unshare(CLONE_FS) (this is ${process.platform})`;
  if (!kernelAllowed()) return 'Bun has no handles mode, and CWDKIT_THREAD_CWD_KERNEL=0 turned kernel mode off';
  return kernelCalls() ? undefined : `a Bun worker's own cwd needs kernel mode, and ${noKernelCalls()}`;
}

/**
 * Where workers cannot have a cwd of their own, the main thread's install() says so, once per process: a worker there
 * runs no preload under cwdkit/register (Bun, Deno), so the user who chose thread-cwd would otherwise learn it only
 * when a worker's chdir fails with the runtime's own error, or, in a Bun web Worker, moves the whole process. Under
 * the flag the install, and so the warning, waits for the first use: a worker's chdir before it may come first.
 */
function warnProcessScope(): void {
  if (state.warnedProcessScope) return;
  state.warnedProcessScope = true;
  process.emitWarning(
    `thread-cwd cannot give workers a cwd of their own here (${missing}): it runs as a process-scope strategy ` +
      `(capabilities.chdirScope 'process'); a worker's process.chdir() is the runtime's own, and install() in a ` +
      'worker refuses with ERR_CWDKIT_UNSUPPORTED_RUNTIME',
    { code: 'CWDKIT_THREAD_CWD_PROCESS_SCOPE' },
  );
}

/** The process cwd, coherent in every thread (a generation counter in shared memory): what a worker follows. */
const processCwd = createProcessCwd();

/**
 * Whether kernel mode may be used: unless CWDKIT_THREAD_CWD_KERNEL=0 asks for handles mode. A value it does not know
 * (`off`, `false`) most likely meant that too: handles mode, with a warning, once per thread.
 */
function kernelAllowed(): boolean {
  const value = process.env.CWDKIT_THREAD_CWD_KERNEL;
  if (value === undefined || value === '' || value === '1') return true;
  if (value !== '0') {
    process.emitWarning(
      `CWDKIT_THREAD_CWD_KERNEL=${JSON.stringify(value)} is neither 0 (handles mode) nor 1 (kernel mode where ` +
        'allowed, the default): handles mode',
      { code: 'CWDKIT_THREAD_CWD_KERNEL_VALUE' },
    );
  }
  return false;
}

/** Kernel mode's calls (see kernel.ts), where it is allowed, the addon loads and unshare(CLONE_FS) is allowed. */
// A worker whose setup entry deferred its install (routes.ts) was given kernel mode at its start: a
// CWDKIT_THREAD_CWD_KERNEL=0 set since (a test runner's env, applied after the setup file) cannot make it handles mode
// now, when functions taken meanwhile hold only the pool's cover.
const calls = threadScoped && !denoMode && (deferredHere() || kernelAllowed()) ? kernelCalls() : undefined;
const threadCwdMode: ThreadCwdMode = calls || denoMode ? 'kernel' : 'handles';

const capabilities: CwdCapabilities = threadScoped
  ? {
      workerCoherent: true,
      chdirFromWorker: true,
      externalChange: 'never',
      chdirScope: 'thread',
      threadCwd: threadCwdMode,
    }
  : { workerCoherent: true, chdirFromWorker: false, externalChange: 'never', chdirScope: 'process' };

/** A worker started by a chdir'd worker starts in its parent's cwd (trap 3's channel, copied at `new Worker`). */
function inherited(): void {
  if (isMainThread || !threadScoped || state.own) return;
  // A handle path (the parent keeps it open until this worker exits: see workers.ts), or a path (a captured class).
  const handed = getEnvironmentData(HANDOFF) as string | Uint8Array | undefined;
  if (typeof handed !== 'string' && !(handed instanceof Uint8Array)) return;
  try {
    enter(typeof handed === 'string' ? handed : Buffer.from(handed), '');
  } catch {
    // The parent's directory is gone: the OS would refuse it too; follow the process cwd.
  }
}

/** Kernel mode: whether this thread's fs_struct is not the process's (it unshared, or its creator's was not). */
const privateFs = () => !isMainThread && getEnvironmentData(PRIVATE_FS) === true;

function cwdForMessage(): string {
  const own = state.own;
  if (own) return own.path;
  try {
    return processCwd.cwd();
  } catch {
    return '';
  }
}

/** Opens `target` (already joined to this thread's cwd) as the thread's new cwd: what chdir(2) checks, then a handle. */
function enter(target: string | Buffer, asked: string): void {
  let fd: number | undefined;
  let entered: Own;
  try {
    fd = openSync(target, O_PATH | fs.constants.O_DIRECTORY); // ENOENT, ENOTDIR, ELOOP, EACCES on the way
    statSync(`${handlePath(fd)}/.`); // EACCES without search permission on the directory itself, as chdir(2)
    const bytes = nameOf(fd); // the physical path, as getcwd gives it
    const { dev, ino } = fstatSync(fd);
    entered = makeOwn(bytes, dev, ino, fd);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    if (hasCode(error)) throw chdirError(error.code, cwdForMessage(), asked);
    throw error;
  }
  // Kernel mode, installed: the thread itself moves (its own fs_struct), so what runs on it needs no join.
  if (calls && state.installed) {
    try {
      kernelChdir(calls, fd);
    } catch (error) {
      closeSync(fd);
      if (hasCode(error) && !error.code.startsWith('ERR_')) throw chdirError(error.code, cwdForMessage(), asked);
      throw error;
    }
    state.kernel = true;
  }
  adopt(entered);
}

/** `entered` as the thread's cwd, the one before retired. */
function adopt(entered: Own): void {
  const previous = state.own;
  if (previous === entered) return;
  state.own = entered;
  recordHandle(0, entered.fd); // before the previous one closes: a slot never names a closed fd
  if (entered.utf8 && !entered.nameless) followBunCwd(entered.path);
  if (previous) retire(previous); // closed once nothing started in it still walks its handle
  // A nameless cwd cannot be handed over by its path: new Worker refuses instead (see workers.ts).
  setEnvironmentData(HANDOFF, entered.nameless ? undefined : entered.bytes);
}

/** The directory's physical path; undefined past PATH_MAX, where the kernel cannot spell it either (getcwd: ERANGE). */
function nameOf(fd: number): Buffer | undefined {
  try {
    return readlinkSync(handlePath(fd), { encoding: 'buffer' });
  } catch (error) {
    if (hasCode(error) && error.code === 'ENAMETOOLONG') return undefined;
    throw error;
  }
}

/**
 * Kernel mode, a thread whose fs_struct is its own: it cannot share the process's again, so where it would go back to
 * following the process cwd (uninstall()), it stays in the directory the process is in at its first uninstall(), in
 * the kernel and through the covers it keeps (release): its sync and async calls, its runtime's own process.cwd()
 * (which asks the kernel for this thread's, and caches it until the main thread's next chdir) and its new workers all
 * agree, and a later chdir of the main thread does not move it. Each uninstall() comes back to that directory, the
 * one the runtime's cache can hold. It takes the process's umask of now too.
 */
function pin(): void {
  let pinned = state.pinned;
  if (pinned === undefined) {
    // No search permission is needed to stay in a directory, as a thread that follows the process would.
    const fd = openSync(processCwdLink(), O_PATH | fs.constants.O_DIRECTORY);
    try {
      const { dev, ino } = fstatSync(fd);
      pinned = makeOwn(nameOf(fd), dev, ino, fd);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    hold(pinned); // for the thread's life: every uninstall() comes back to it
    state.pinned = pinned;
    recordHandle(1, pinned.fd);
  }
  if (calls) {
    try {
      kernelChdir(calls, pinned.fd);
    } catch {
      intoDeletedDirectory(calls); // it may not enter it: where every relative path fails, as it would there
    }
    calls.umask();
    state.kernel = true;
  }
  adopt(pinned);
}

/** Back to following the process cwd: the thread's own cwd, its handle and its handoff to new workers dropped. */
function forget(): void {
  const own = state.own;
  if (own === undefined) return;
  if (state.kept) return; // uninstalled in kernel mode: it stays where uninstall() pinned it
  state.own = undefined;
  recordHandle(0, undefined);
  if (runtime === 'bun') followBunCwd(cwdForMessage());
  retire(own);
  setEnvironmentData(HANDOFF, undefined); // undefined deletes it
}

function threadChdir(directory: string): void {
  // Kernel mode, uninstalled: the thread stays where uninstall() left it (pin), which the runtime's own process.cwd()
  // caches; a provider's chdir would part its covered calls from its runtime's answers.
  if (state.kept && !state.installed) {
    throw codedError(
      new Error(
        "chdir(): this worker's cwd is its own in the kernel (thread-cwd's kernel mode) and it stays where uninstall() left it; install() a provider to chdir again",
      ),
      'ERR_WORKER_UNSUPPORTED_OPERATION',
    );
  }
  // The kernel's answers to what cannot be opened at all, worded as chdir's (Bun's own refuses '' before the kernel).
  if (directory === '') {
    if (runtime === 'bun') {
      throw codedError(new TypeError('Expected path to be a non-empty string'), 'ERR_INVALID_ARG_TYPE');
    }
    throw chdirError('ENOENT', cwdForMessage(), directory);
  }
  if (tooLongForOs(directory)) {
    throw chdirError('ENAMETOOLONG', cwdForMessage(), directory);
  }
  const own = state.own;
  // Relative to this thread's cwd, joined as given (`..` is the kernel's to walk: trap 11); a thread that never
  // chdir'd is in the process cwd, where the OS resolves a relative path itself.
  // Through the directory's handle: wherever it went, and past PATH_MAX (a deep tree entered step by step).
  if (own === undefined || directory.charCodeAt(0) === 47) {
    enter(directory, directory);
    return;
  }
  enter(viaHandle(own, directory), directory);
}

/** uv_cwd's ERANGE as this Node words it (23+ put their own words first; 20 and 22 say libuv's alone). */
const tooLarge =
  Number(process.versions.node.split('.')[0]) >= 23 ? 'process.cwd failed with error result too large' : undefined;

function threadCwd(): string {
  const own = state.own;
  if (own === undefined) return processCwd.cwd();
  return own.answer ?? firstAnswer(own);
}

/** cwd()'s first answer after a chdir, where the directory is now; errors are not kept (uv_cwd asks again). */
function firstAnswer(own: Own): string {
  verify(own);
  if (own.dead) throw cwdError('ENOENT');
  if (own.nameless) throw cwdError('ERANGE', tooLarge);
  // A name that is not UTF-8 has no string (the decoded one, with U+FFFD, names another directory): as every strategy.
  if (!own.utf8) throw cwdError('EILSEQ');
  own.answer = own.path;
  return own.path;
}

/**
 * Gives back the covers at uninstall(), except in a thread whose fs_struct is its own (kernel mode): it cannot share
 * the process's again, so it keeps them, to follow the process cwd through /proc (forget()); the next install() takes
 * them back.
 */
function release(undo: () => void, undoWorkers: () => void): void {
  if (privateFs()) {
    state.kept = { undo, undoWorkers };
    return;
  }
  undoWorkers();
  undo();
}

/** A cwd of its own for every worker; the main thread's chdir is the process's. */
export const strategy = defineStrategy({
  specVersion: 1,
  name: 'thread-cwd',
  description:
    'A working directory of its own for every worker thread (process.chdir works in workers and moves only that thread); workers that never chdir follow the process cwd.',
  create(): CwdProvider {
    if (mainThread || !threadScoped) {
      return buildProvider({
        strategy: 'thread-cwd',
        capabilities,
        cwd: processCwd.cwd,
        chdir: processCwd.chdir,
        invalidate: processCwd.invalidate,
        install() {
          if (!mainThread || vmContext) {
            throw codedError(
              new Error(
                `install(): thread-cwd cannot ${vmContext ? 'run here' : 'give this worker a cwd of its own'}: ${missing}`,
              ),
              'ERR_CWDKIT_UNSUPPORTED_RUNTIME',
            );
          }
          // The main thread's chdir is the real one: only its new workers need covering, to start installed (Node; a
          // Deno worker shares the main thread's fs_struct until its first chdir, and follows it until then).
          if (threadScoped) return denoMode ? () => {} : coverWorkers();
          warnProcessScope();
          return () => {};
        },
      });
    }
    if (denoMode) return denoWorkerProvider(capabilities);
    inherited();
    state.open = (state.open ?? 0) + 1;
    return buildProvider({
      strategy: 'thread-cwd',
      capabilities,
      cwd: threadCwd,
      chdir: threadChdir,
      invalidate() {
        processCwd.invalidate();
        if (state.own) state.own.answer = undefined; // the next cwd() asks where the directory is
      },
      // At install, not at the first chdir: a library that takes `const { readFileSync } = require('fs')` between
      // the two must get the covered function (trap 15). Until this thread chdirs, a covered call costs one check.
      install() {
        // The setup entry expected kernel mode and covered only what runs on the pool until now (early.ts): a sync fs
        // function captured since would miss the handle cover. Never a partial cover: refused, nothing moved.
        if (!calls && deferredHere()) {
          throw codedError(
            new Error(
              `thread-cwd: this worker's setup entry expected kernel mode and waited for its first chdir, but ${noKernelCalls()}: set CWDKIT_THREAD_CWD_KERNEL=0 for the process, so that each worker installs handles mode at its start`,
            ),
            'ERR_CWDKIT_UNSHARE_FAILED',
          );
        }
        // A thread whose fs_struct is its own kept its covers at its last uninstall(): taken back, not doubled.
        const kept = state.kept;
        state.kept = undefined;
        const undo = kept?.undo ?? cover(calls !== undefined);
        let undoWorkers: () => void;
        try {
          undoWorkers = kept?.undoWorkers ?? coverWorkers();
        } catch (error) {
          undo(); // all or nothing
          throw error;
        }
        state.installed = true;
        // A worker that took its parent's cwd at create() (inherited) moves there in the kernel now, in an fs_struct
        // of its own, so that its own calls need no join. One started by a thread whose fs_struct was its own, with no
        // cwd handed over, has a copy of that one: it stays in the process cwd of now (pin).
        const own = state.own;
        try {
          if (own === undefined && privateFs()) pin();
          else if (calls && own) {
            kernelChdir(calls, own.fd);
            state.kernel = true;
          }
        } catch (error) {
          state.installed = false; // as it was: the covers kept, or none
          if (kept) state.kept = kept;
          else {
            undoWorkers();
            undo();
          }
          throw error;
        }
        return () => {
          state.installed = false;
          release(undo, undoWorkers);
          // A provider installed later starts in the process cwd, not in this one's (kernel mode: the one of now).
          if (state.kept) pin();
          else forget();
        };
      },
      // The last open provider of a thread where none is installed (one may have taken its parent's cwd): the cwd
      // goes with it; while another is open, that one keeps the thread's cwd.
      close() {
        state.open = (state.open ?? 1) - 1;
        if (!state.installed && state.open === 0) forget();
      },
    });
  },
});

export const createProvider = (): CwdProvider => strategy.create();
export default strategy;
