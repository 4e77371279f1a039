// The setup entry in a Node worker where kernel mode is to be expected (issue #28 item 5): what must be in place before
// the worker's code runs, and nothing more; the rest (core, cwdkit, the addon, the cover's joins) loads at the worker's
// first chdir, its first `new Worker`, or the first install() or installed(). Until then the worker follows the process
// cwd with the runtime's own process.cwd(), path.resolve and fs, as every thread does; what must be there from the
// start is only what code can capture before that chdir (trap 15):
// - The functions of node:fs and fs/promises that run on libuv's shared pool, which stays in the process cwd: a
//   library that takes `const { readFile } = require('fs/promises')` now must hold a function that follows the
//   worker later. Each is a trampoline to the original until install() gives it the covered one (cover.ts), wherever
//   it is by then (a spy put over it and restored, a wrapper that calls it). Sync fs, child_process and net need
//   nothing: in kernel mode they run on the thread, which the kernel moves.
// - node:fs/promises is loaded for that (~2 ms of a fresh worker): a watch for its first load missed ways to it (a
//   resolver that maps another name to it, package.json "imports", a loader's own hook; a review found "root" read in
//   "sub"), and broke loaders on Node 22 (registerHooks beside module.register); a value taken from it is final.
// - `Worker`: a worker started from here must start installed; its first `new Worker` installs (worker-class.ts).
// - process.chdir and process.cwd, as stubs that wait (cwdkit/defer): the first chdir loads and installs.
// Each file this entry bundles costs every worker its parse (~0.05 ms a KiB): this one imports only what it runs.
// On Deno the entry puts only the chdir and cwd stubs in place here (denoStubs); deno-early.ts decides whether they wait.
import { type Deferred, deferInstall, installedOrWaiting } from 'cwdkit/defer';
import type { Fn } from './patch.js';
import {
  ADDED,
  type Added,
  deferredHere,
  HANDOFF,
  keepEarlyNames,
  markDeferred,
  named,
  PRELOADED,
  PRIVATE_FS,
  type Route,
  routes,
  START_COVER,
  type StartCover,
} from './routes.js';

// Builtins read at the call, not at load: the setup entry loads this file on Deno too, where the first read of
// `process` starts Deno's Node layer (deno-early.ts). node:fs itself, not a default import: in the CommonJS build
// that copies every property of the module (esbuild's __toESM), ~0.7 ms of a fresh worker.
const fs = () => process.getBuiltinModule('node:fs');
const threads = () => process.getBuiltinModule('node:worker_threads'); // a worker's bootstrap loaded it
const slots = () => Object.getPrototypeOf(process) as Record<symbol, unknown>;

/**
 * What kernel mode covers of each module (surface.ts: kernelSurface(false), the functions that leave the calling
 * thread), as names; the enumeration test holds these lists to it. A name the running Node does not export is skipped.
 */
const pool =
  'access appendFile chmod chown copyFile cp lchmod lchown link lstat lutimes mkdir mkdtemp open opendir readdir readFile readlink rename rm rmdir stat statfs symlink truncate unlink utimes writeFile';
export const EARLY_SURFACE = {
  fs: `${pool} exists opendirSync openAsBlob openAsBlobSync watch mkdtempDisposableSync realpath.native`.split(' '),
  'fs/promises': `${pool} realpath watch mkdtempDisposable`.split(' '),
} as const;

/**
 * Puts a trampoline over each function of `module` that kernel mode covers and returns their undo; undefined, and
 * nothing changed, where one cannot be replaced.
 */
function route(module: Route['module'], exported: object): (() => void) | undefined {
  const placed: [Record<string, Fn>, string, Fn][] = [];
  for (const name of EARLY_SURFACE[module]) {
    const [outer, inner] = name.split('.') as [string, string | undefined];
    const host = (inner === undefined ? exported : (exported as Record<string, unknown>)[outer]) as Record<string, Fn>;
    const key = inner ?? outer;
    const original = host?.[key];
    if (typeof original !== 'function' || routes().has(original)) continue; // none, or placed already (a second copy)
    const to: Route = { original, covered: undefined, module, name };
    const trampoline = named(function (this: unknown, ...args: unknown[]) {
      return Reflect.apply(to.covered ?? original, this, args);
    }, original);
    try {
      host[key] = trampoline;
    } catch {}
    placed.push([host, key, original]);
    if (host[key] !== trampoline) {
      undo();
      return undefined;
    }
    routes().set(trampoline, to);
  }
  keepEarlyNames(module, Object.keys(exported));
  return undo;
  function undo() {
    for (const [owner, at, value] of placed.reverse()) {
      routes().delete(owner[at]);
      if (owner[at] !== value) owner[at] = value;
    }
  }
}

/** Whether this worker may load an addon (the kernel calls are one): not under --no-addons, nor Node's permission model
 * without --allow-addons. */
function addonsAllowed(): boolean {
  const flags = process.execArgv;
  if (flags.includes('--no-addons')) return false;
  const permission = flags.some((flag) => flag === '--permission' || flag === '--experimental-permission');
  return !permission || flags.includes('--allow-addons');
}

/** Whether the process runs under no seccomp filter: then nothing refuses unshare(CLONE_FS) (trap 17). */
function noSeccompFilter(): boolean {
  try {
    // A proc file says it is empty: readFileSync reads it in chunks until the end.
    return fs().readFileSync('/proc/thread-self/status', 'latin1').includes('\nSeccomp:\t0\n');
  } catch {
    return false; // no /proc: handles mode cannot run either, and install() says so
  }
}

/**
 * The execArgv a worker started by thread-cwd's Worker cover was given, given back now, before the worker's code reads
 * it (worker-class.ts, startedWithSetup: there it says the setup entry was preloaded).
 */
function takeAdded(): void {
  const added = threads().getEnvironmentData(ADDED) as Added | undefined;
  if (added === undefined || !process.execArgv.includes(added.entry)) return; // startedWithSetup() sees to it
  slots()[PRELOADED] = true;
  threads().setEnvironmentData(ADDED, undefined);
  process.execArgv.splice(0, Infinity, ...added.execArgv);
}

/** `Worker` covered until the install: its first `new Worker` installs, which gives the cover its `construct`. */
function coverWorkerUntilInstall(load: () => void): void {
  const slot = threads() as unknown as { Worker: Fn };
  const cover: StartCover = { original: slot.Worker, around: undefined, construct: undefined };
  slot.Worker = new Proxy(slot.Worker, {
    construct(target, args, newTarget) {
      if (cover.construct === undefined) load();
      return (cover.construct ?? Reflect.construct)(target, args, newTarget as Fn);
    },
  });
  slots()[START_COVER] = cover;
}

/**
 * In a Node worker on Linux where kernel mode is to be expected (not asked off, no seccomp filter, started by a thread
 * that never chdir'd, nothing installed here yet), puts the early cover in place, defers the install to the first use
 * with `load`, and returns true. Anywhere else, false: the setup entry installs at once (on Deno it calls denoStubs
 * and denoSettle below instead).
 */
export function deferKernelInstall(load: () => void): boolean {
  // Not on Bun: a value taken before the first chdir there would keep Bun's cached cwd, which no trampoline of fs's
  // reaches (an ES module's named import of node:path's resolve, Bun.resolveSync), so a Bun worker installs at once.
  const globals = globalThis as { Bun?: object; Deno?: unknown };
  if (globals.Bun !== undefined || globals.Deno !== undefined || process.platform !== 'linux') return false;
  if (threads().isMainThread) return false;
  if (Object.getPrototypeOf(process.versions) !== Object.prototype) return false; // a vm context: install() refuses
  const asked = process.env.CWDKIT_THREAD_CWD_KERNEL;
  if (asked !== undefined && asked !== '' && asked !== '1') return false;
  // A worker of a thread with a cwd of its own takes it at install: that install is now.
  if (threads().getEnvironmentData(HANDOFF) !== undefined || threads().getEnvironmentData(PRIVATE_FS) === true)
    return false;
  // The setup entry ran already (its ESM and CJS copies): its load waits, or ran.
  if (deferredHere()) return true;
  if (installedOrWaiting()) return false;
  if (!addonsAllowed() || !noSeccompFilter()) return false;

  const unrouteFs = route('fs', fs());
  if (!unrouteFs) return false;
  if (!route('fs/promises', fs().promises)) {
    unrouteFs();
    return false;
  }
  takeAdded();
  markDeferred();
  const deferred = deferInstall(load, {
    processCwd: process.cwd,
    processChdir: process.chdir,
    denoCwd: undefined,
    denoChdir: undefined,
  });
  coverWorkerUntilInstall(deferred.load);
  // Facades of the builtins' ES modules made before now (Node 26 loads the ES module loader in every worker) follow.
  if (
    (process as unknown as { moduleLoadList: string[] }).moduleLoadList.includes(
      'NativeModule internal/modules/esm/loader',
    )
  ) {
    process.getBuiltinModule('node:module').syncBuiltinESMExports();
  }
  deferred.forward(process as unknown as Record<string, unknown>, 'chdir', true);
  deferred.forward(process as unknown as Record<string, unknown>, 'cwd', false);
  return true;
}

const DENO_DEFERRED = Symbol.for('cwdkit.thread-cwd.deno-deferred.v1');
const denoSlots = globalThis as unknown as { [DENO_DEFERRED]?: true };

/**
 * Deno: the setup entry's stubs over Deno.chdir and Deno.cwd, and process.chdir and process.cwd, before any other code
 * of the thread runs (a module imported beside the ES module entry runs while it awaits deno-early.js): Deno's own
 * chdir, taken before and called later, would move every thread. The first chdir loads with `load`. `process` is read
 * for that: in a web Worker that starts Deno's Node layer (~11 ms), and a module's `import process from 'node:process'`
 * reaches the same object without the global's getter. Returns true where the entry ran already (its ES module and
 * CommonJS copies), undefined where something is installed or waits (the entry installs at once, and says what).
 */
export function denoStubs(load: () => void): Deferred | true | undefined {
  if (denoSlots[DENO_DEFERRED]) return true;
  if (installedOrWaiting()) return undefined;
  const deno = (globalThis as unknown as { Deno: Record<string, unknown> }).Deno;
  const process = (globalThis as unknown as { process: Record<string, unknown> }).process;
  const deferred = deferInstall(load, {
    processCwd: process.cwd,
    processChdir: process.chdir,
    denoCwd: deno.cwd,
    denoChdir: deno.chdir,
  });
  deferred.forward(deno, 'chdir', true);
  deferred.forward(deno, 'cwd', false);
  deferred.forward(process, 'chdir', true);
  deferred.forward(process, 'cwd', false);
  denoSlots[DENO_DEFERRED] = true;
  return deferred;
}

/**
 * Deno, once deno-early.ts said whether kernel mode runs here (`kernel`, denoKernel's answer): in a worker where it
 * runs the stubs keep waiting (true). On the main thread they go (false: the entry installs at once, process-scoped; a
 * chdir there moves the process anyway). In a worker where it cannot run the install runs now, through the stubs, with
 * no await between (a module beside the entry could chdir there, moving every thread), and throws its refusal; the
 * stubs go, as a refused install changes nothing. True also where a call loaded the install meanwhile.
 */
export function denoSettle(deferred: Deferred, kernel: { missing: string | undefined; mainThread: boolean }): boolean {
  if (!deferred.waiting()) return true;
  if (kernel.mainThread) {
    deferred.cancel();
    denoSlots[DENO_DEFERRED] = undefined;
    return false;
  }
  if (kernel.missing !== undefined) {
    try {
      deferred.load(); // refuses
    } finally {
      deferred.cancel(); // as it was: a refused entry changes nothing
      denoSlots[DENO_DEFERRED] = undefined;
    }
  }
  return true;
}
