import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { findRuntime, runtimeCommand } from '@cwdkit/conformance';

export const packageRoot = fileURLToPath(new URL('..', import.meta.url));
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

/**
 * Waits (sleeping this thread) until the watch thread whose polls `polls` counts has completed `count` more polls
 * (2 by default): the second of them started after this call, so it has seen any change made before it. Counted, not
 * timed: a busy machine only makes it wait longer (vitest's test timeout stops a watcher that never polls).
 */
export function untilPolled(polls: () => number, count = 2): void {
  const until = polls() + count;
  while (polls() < until) sleep(1);
}

export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

export interface Ended {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a process still alive after timeoutMs is killed (and the caller's check fails). */
export function run(command: string[], timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0] as string, command.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...env, NO_COLOR: '1' },
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}

/** Each runtime and the command prefix that runs a script on it (undefined when it is not installed). */
export const runtimes = [
  ['node', [process.execPath]],
  ['bun', findRuntime('bun') && runtimeCommand('bun', findRuntime('bun') as string, '').slice(0, -1)],
  ['deno', findRuntime('deno') && runtimeCommand('deno', findRuntime('deno') as string, '').slice(0, -1)],
] as const;

export const repoModules = path.join(packageRoot, '..', '..', 'node_modules');

/**
 * Installs a real copy of the built package (its own dist and .node file) with its dependencies into
 * `project`/node_modules, readable by everyone: what npm does with two versions in one tree, or for another user.
 * Returns the copy's ESM entry.
 */
export function copyPackage(project: string): string {
  const modules = path.join(project, 'node_modules');
  const copy = (from: string, to: string, entries: string[]) => {
    for (const entry of entries) fs.cpSync(path.join(from, entry), path.join(modules, to, entry), { recursive: true });
  };
  copy(packageRoot, '@cwdkit/native', ['package.json', 'dist', 'build/Release/cwdkit.node']);
  const core = fs.realpathSync(path.join(repoModules, '@cwdkit/core'));
  copy(core, '@cwdkit/core', ['package.json', 'dist']);
  const { dependencies = {} } = JSON.parse(fs.readFileSync(path.join(core, 'package.json'), 'utf8'));
  for (const name of ['node-gyp-build', ...Object.keys(dependencies)]) copy(path.join(repoModules, name), name, ['.']);
  execFileSync('chmod', ['-R', 'a+rX', project]);
  return path.join(modules, '@cwdkit/native', 'dist', 'index.js');
}
