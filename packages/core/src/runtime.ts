import fs from 'node:fs';
import process from 'node:process';
import { isMainThread } from 'node:worker_threads';
import { chdirError, codedError, hasCode } from './errors.js';
import { threadState } from './shared.js';

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

/** The runtime's own answer, cached or not: Deno.cwd() on Deno, the original process.cwd() elsewhere. */
export const runtimeCwd: () => string = deno
  ? () => (originals.denoCwd as () => string).call(deno)
  : () => originals.processCwd.call(process);

/** Linux refuses paths of PATH_MAX bytes or more; most other systems use 1024. */
const PATH_MAX = process.platform === 'linux' ? 4096 : 1024;

function cwdForMessage(): string {
  try {
    return readOsCwd();
  } catch {
    return '';
  }
}

/**
 * Ask the OS itself, never a runtime's cache (trap 2): on Node 20 and Bun the cached value of a worker can be stale.
 * Throws an ENOENT error shaped like Node's own when the directory was deleted.
 */
export function readOsCwd(): string {
  try {
    return deno ? (originals.denoCwd as () => string).call(deno) : fs.realpathSync.native('.');
  } catch (error) {
    if (!hasCode(error)) throw error;
    const failure = new Error(`${error.code}: ${error.message.replace(/^\w+: /, '').split(',')[0]}, uv_cwd`);
    throw Object.assign(failure, { code: error.code, syscall: 'uv_cwd' });
  }
}

/**
 * Change the process cwd with the runtime's original chdir. Failures throw Node's error shape and leave the cwd as
 * it was; on Node and Bun a worker gets the runtime's own refusal (ERR_WORKER_UNSUPPORTED_OPERATION).
 * The caller has already run checkDirectory().
 */
export function osChdir(directory: string): void {
  // The kernel's answers, given before Bun can turn them into errors without a code.
  if (directory === '') throw chdirError('ENOENT', cwdForMessage(), directory);
  if (Buffer.byteLength(directory) >= PATH_MAX) throw chdirError('ENAMETOOLONG', cwdForMessage(), directory);
  if (!deno) {
    originals.processChdir.call(process, directory);
    return;
  }
  try {
    (originals.denoChdir as (directory: string) => void).call(deno, directory);
  } catch (error) {
    if (!hasCode(error)) throw error;
    throw chdirError(error.code, cwdForMessage(), directory);
  }
}

/**
 * chdir in a worker, for a strategy whose cache only the main thread may change: Node and Bun refuse with their own
 * error; Deno would let the worker chdir behind the main thread's cache, so it gets the same refusal from us.
 */
export function refuseWorkerChdir(directory: string): never {
  // The runtime's own chdir, not osChdir: its early answers ('' → ENOENT) would come before the refusal.
  if (runtime !== 'deno') originals.processChdir.call(process, directory);
  throw codedError(new TypeError('process.chdir() is not supported in workers'), 'ERR_WORKER_UNSUPPORTED_OPERATION');
}
