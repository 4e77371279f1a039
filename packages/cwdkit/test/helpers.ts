import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = fileURLToPath(new URL('..', import.meta.url));
export const dist = path.join(packageRoot, 'dist');
export const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));

/**
 * Whether a per-major test runs on this Node major: Node 24 (the Active LTS) on every run; Node 22 and 26 where
 * CWDKIT_CONFORMANCE_RUNTIMES names them (npm run test:release, which selects those tests by their `node 22` or
 * `node 26` title; npm test sets bun,deno in vitest.shared.ts) and on every run where it is unset.
 */
export function majorRuns(major: 22 | 24 | 26): boolean {
  const chosen = process.env.CWDKIT_CONFORMANCE_RUNTIMES;
  return major === 24 || chosen === undefined || chosen.split(',').some((name) => name.trim() === `node${major}`);
}

/** A fresh real directory (symlinks resolved, so it compares equal to what getcwd reports). */
export function scratchDir(prefix = 'cwdkit-select-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function writeFile(file: string, content: string | object): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/**
 * A strategy module on disk that needs nothing else: its provider reports the strategy's name and the options it was
 * created with, so a test can see which module won and what reached create().
 */
export function strategySource(
  name: string,
  format: 'esm' | 'cjs' = 'esm',
  options: readonly string[] = ['a', 'x', 'level', 'fromFile'],
): string {
  const body = `{
  specVersion: 1,
  name: ${JSON.stringify(name)},
  description: 'fixture strategy ${name}',
  options: ${JSON.stringify(options)},
  create(options) {
    return {
      strategy: ${JSON.stringify(name)},
      capabilities: { workerCoherent: false, chdirFromWorker: false, externalChange: 'immediate' },
      options,
      cwd: () => process.cwd(),
      chdir: (d) => process.chdir(d),
      resolve: (...s) => require('node:path').resolve(...s),
      invalidate() {},
      close() {},
      [Symbol.dispose]() {},
    };
  },
}`;
  return format === 'esm'
    ? `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport default ${body};\n`
    : `'use strict';\nObject.defineProperty(exports, '__esModule', { value: true });\nexports.default = ${body};\n`;
}

/**
 * An installed package `node_modules/<packageName>` in `root` that declares the strategy `name` in its package.json,
 * its default export a fixture strategy.
 */
export function installStrategyPackage(
  root: string,
  packageName: string,
  name: string,
  format: 'esm' | 'cjs' = 'esm',
  options?: readonly string[],
) {
  const dir = path.join(root, 'node_modules', packageName);
  const main = format === 'esm' ? 'index.mjs' : 'index.cjs';
  writeFile(path.join(dir, 'package.json'), { name: packageName, version: '1.0.0', main, cwdkit: { strategy: name } });
  writeFile(path.join(dir, main), strategySource(name, format, options));
  return dir;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a real child process and collects its output (no shell). */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: { ...process.env, CWDKIT_STRATEGY: '', ...options.env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A copy of the built cwdkit and @cwdkit/core in `root`/node_modules, as npm would install them. */
export function copyPackage(root: string): void {
  const core = path.join(packageRoot, '../core');
  for (const [from, to] of [
    [packageRoot, 'node_modules/cwdkit'],
    [core, 'node_modules/@cwdkit/core'],
  ] as const) {
    for (const part of from === core ? ['dist', 'package.json'] : ['dist', 'bin', 'package.json']) {
      fs.cpSync(path.join(from, part), path.join(root, to, part), { recursive: true });
    }
  }
}
