// The setup entry in a Node worker where kernel mode is to be expected (issue #28 item 5): what must be in place before
// the worker's code runs, and nothing more; the rest (core, cwdkit, the addon, the cover's joins) loads at the worker's
// first chdir, or the first install() or installed(). Until then the worker follows the process cwd with the
// runtime's own process.cwd(), path.resolve and fs, as every thread does; what must be there from the start is only
// what code can capture before that chdir (trap 15):
// - The functions of node:fs and fs/promises that run on libuv's shared pool, which stays in the process cwd: a
//   library that takes `const { readFile } = require('fs/promises')` now must hold a function that follows the
//   worker later. Each is a trampoline to the original until install() gives it the covered one (cover.ts), wherever
//   it is by then (a spy put over it and restored, a wrapper that calls it). Sync fs,
//   child_process and net need nothing: in kernel mode they run on the thread, which the kernel moves.
// - node:fs/promises is loaded for that (~2 ms of a fresh worker): an ES module's named import of it, or `import()`,
//   reaches the module through no hook a CommonJS file can set, and a value taken from there is final.
// - `Worker`, covered as on the main thread at start (worker-class.ts), so a worker started from here starts installed.
// - process.chdir and process.cwd, as stubs that wait (cwdkit/defer): the first chdir loads and installs.
import { deferInstall, installedOrWaiting } from 'cwdkit/defer';
import type { Fn } from './patch.js';
import { deferredHere, keepEarlyNames, markDeferred, type Route, routes } from './routes.js';
import { type Covered, hostOf, kernelSurface, named } from './surface.js';
import { coverAtStart, HANDOFF, PRIVATE_FS, syncBuiltinExports, takeAdded } from './worker-class.js';

/**
 * node:fs itself, not a default import: in the CommonJS build that copies every property of the module (esbuild's
 * __toESM), ~0.7 ms of a fresh worker.
 */
const fs = process.getBuiltinModule('node:fs');

/** Puts a trampoline over each function of `module` that kernel mode covers; false where one cannot be replaced. */
function route(module: Covered['module'], exported: object): boolean {
  const placed: [Record<string, unknown>, string, Fn][] = [];
  for (const entry of kernelSurface(false)) {
    if (entry.module !== module) continue;
    const found = hostOf(entry, exported);
    if (!found) continue;
    const [host, key] = found as [Record<string, unknown>, string];
    const original = host[key] as Fn;
    if (routes().has(original)) continue; // placed already (a second copy of this file)
    const to: Route = { original, covered: undefined, entry };
    const trampoline = named(function (this: unknown, ...args: unknown[]) {
      return Reflect.apply(to.covered ?? original, this, args);
    }, original);
    try {
      host[key] = trampoline;
    } catch {}
    if (host[key] !== trampoline) {
      for (const [owner, name, value] of placed.reverse()) {
        routes().delete(owner[name]);
        owner[name] = value;
      }
      return false;
    }
    placed.push([host, key, original]);
    routes().set(trampoline, to);
  }
  return true;
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
  // One read into a buffer: a proc file says it is empty, and readFileSync reads it in chunks it grows.
  const buffer = Buffer.allocUnsafe(4096);
  let fd: number | undefined;
  try {
    fd = fs.openSync('/proc/self/status', 'r');
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.toString('latin1', 0, read).includes('\nSeccomp:\t0\n');
  } catch {
    return false; // no /proc: handles mode cannot run either, and install() says so
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * In a Node worker on Linux where kernel mode is to be expected (not asked off, no seccomp filter, started by a thread
 * that never chdir'd, nothing installed here yet), puts the early cover in place, defers the install to the first use
 * with `load`, and returns true. Anywhere else, false: the setup entry installs at once.
 */
export function deferKernelInstall(load: () => void): boolean {
  // Not on Bun: a value taken before the first chdir there would keep Bun's cached cwd, which no trampoline of fs's
  // reaches (an ES module's named import of node:path's resolve, Bun.resolveSync), so a Bun worker installs at once.
  const globals = globalThis as { Bun?: object; Deno?: unknown };
  if (globals.Bun !== undefined || globals.Deno !== undefined || process.platform !== 'linux') return false;
  const threads = process.getBuiltinModule('node:worker_threads'); // a worker's bootstrap loaded it
  if (threads.isMainThread) return false;
  if (Object.getPrototypeOf(process.versions) !== Object.prototype) return false; // a vm context: install() refuses
  const asked = process.env.CWDKIT_THREAD_CWD_KERNEL;
  if (asked !== undefined && asked !== '' && asked !== '1') return false;
  // A worker of a thread with a cwd of its own takes it at install: that install is now.
  if (threads.getEnvironmentData(HANDOFF) !== undefined || threads.getEnvironmentData(PRIVATE_FS) === true)
    return false;
  // The setup entry ran already (its ESM and CJS copies): its load waits, or ran.
  if (deferredHere()) return true;
  if (installedOrWaiting()) return false;
  if (!addonsAllowed() || !noSeccompFilter()) return false;

  keepEarlyNames(
    new Set([
      ...Object.keys(fs).map((name) => `fs.${name}`),
      ...Object.keys(fs.promises).map((n) => `fs/promises.${n}`),
    ]),
  );
  if (!route('fs', fs) || !route('fs/promises', fs.promises)) return false;
  takeAdded();
  coverAtStart();
  syncBuiltinExports();
  markDeferred();
  const deferred = deferInstall(load, {
    processCwd: process.cwd,
    processChdir: process.chdir,
    denoCwd: undefined,
    denoChdir: undefined,
  });
  deferred.forward(process as unknown as Record<string, unknown>, 'chdir', true);
  deferred.forward(process as unknown as Record<string, unknown>, 'cwd', false);
  return true;
}
