import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
/** The built CJS entry, for code that runs in eval'd workers and child processes. */
export const distCjs = path.join(packageRoot, 'dist', 'index.cjs');
export const distEsm = path.join(packageRoot, 'dist', 'index.js');

/** Other native code (test/helper/chdir-helper.cc): chdir(2) without telling the provider. Returns 0 or errno. */
export const helper = createRequire(import.meta.url)(
  path.join(packageRoot, 'test', 'helper', 'build', 'Release', 'chdir_helper.node'),
) as { chdir(directory: string): number };

/** A fresh real directory (symlinks resolved) that the test removes with removeTree. */
export function scratch(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-native-')));
}

/** rm -rf: fs.rmSync cannot remove a tree deeper than PATH_MAX. */
export function removeTree(directory: string): void {
  execFileSync('rm', ['-rf', directory]);
}

export function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The OS's own answer from another process: /bin/pwd -P inherits our cwd and handles any length. */
export function pwd(): string {
  return execFileSync('pwd', ['-P'], { encoding: 'utf8' }).trimEnd();
}

/**
 * Runs `body` (CommonJS source, with `native` = the built package, `parentPort`, `workerData`) in a real worker and
 * collects what it posts until it exits.
 */
export function inWorker(body: string, workerData?: unknown): { worker: Worker; messages: Promise<unknown[]> } {
  const source = `const native = require(${JSON.stringify(distCjs)});
const { parentPort, workerData } = require('node:worker_threads');
${body}`;
  const worker = new Worker(source, { eval: true, workerData });
  const received: unknown[] = [];
  worker.on('message', (message) => received.push(message));
  const messages = new Promise<unknown[]>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 ? resolve(received) : reject(new Error(`worker exited with ${code}`))));
  });
  return { worker, messages };
}

export function nextMessage(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/** How many threads this process runs (Linux). */
export function threadCount(): number {
  return fs.readdirSync('/proc/self/task').length;
}
