// cover() is all or nothing: when one function cannot be replaced, install() refuses with a code and every function
// it had already replaced is the original again. In a real worker, with the ESM and the CommonJS build.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const packages = path.join(import.meta.dirname, '..', '..');

/**
 * A worker that makes `target` (a property of `owner`, named by the expression `ownerCode`) read-only, installs
 * thread-cwd, and reports what it threw and which of the functions cover() replaces are no longer the originals.
 */
function attempt(build: 'esm' | 'cjs', ownerCode: string, target: string) {
  const [cwdkit, threadCwd] = [path.join(packages, 'cwdkit', 'dist'), path.join(packages, 'thread-cwd', 'dist')].map(
    (dist) => path.join(dist, build === 'esm' ? 'index.js' : 'index.cjs'),
  );
  const load = (file: string | undefined) =>
    build === 'esm' ? `await import(${JSON.stringify(file)})` : `require(${JSON.stringify(file)})`;
  const code = `
const fs = require('node:fs');
const childProcess = require('node:child_process');
const workerThreads = require('node:worker_threads');
const { readFileSync: namedBefore } = require('node:fs');
(async () => {
  const { install, installed } = ${load(cwdkit)};
  const { createProvider } = ${load(threadCwd)};
  /** Every function cover() may replace, by name. */
  const slots = () => ({
    ...Object.fromEntries(Object.entries(fs).filter(([, f]) => typeof f === 'function').map(([k, f]) => ['fs.' + k, f])),
    'fs.realpathSync.native': fs.realpathSync.native,
    'fs.realpath.native': fs.realpath.native,
    ...Object.fromEntries(Object.entries(fs.promises).map(([k, f]) => ['fs/promises.' + k, f])),
    ...Object.fromEntries(Object.entries(childProcess).map(([k, f]) => ['child_process.' + k, f])),
    'ChildProcess.prototype.spawn': childProcess.ChildProcess.prototype.spawn,
    'process.loadEnvFile': process.loadEnvFile,
    'process.dlopen': process.dlopen,
    'process.cwd': process.cwd,
    'process.chdir': process.chdir,
    'worker_threads.Worker': workerThreads.Worker,
    'MessagePort.prototype.postMessage': workerThreads.MessagePort.prototype.postMessage,
  });
  const owner = ${ownerCode};
  const value = owner[${JSON.stringify(target)}];
  const before = slots();
  Object.defineProperty(owner, ${JSON.stringify(target)}, { value, writable: false, configurable: true });
  let thrown;
  try {
    install(createProvider());
  } catch (error) {
    thrown = { code: error.code, message: error.message };
  }
  const after = slots();
  const changed = Object.keys(before).filter((name) => before[name] !== after[name]);
  const report = { thrown, changed, installed: installed() ?? null, named: require('node:fs').readFileSync === namedBefore };
  // Once the property can be replaced again, install() works: nothing was left half done.
  Object.defineProperty(owner, ${JSON.stringify(target)}, { value, writable: true, configurable: true });
  install(createProvider());
  process.chdir(${JSON.stringify(packages)});
  report.afterwards = fs.existsSync('thread-cwd/package.json') && process.cwd();
  workerThreads.parentPort.postMessage(report);
})().catch((error) => workerThreads.parentPort.postMessage({ failed: String(error.stack) }));
`;
  const worker = new Worker(code, { eval: true });
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => worker.terminate());
}

describe.skipIf(process.platform !== 'linux')('cover() is all or nothing', () => {
  for (const build of ['esm', 'cjs'] as const) {
    for (const [ownerCode, target, label] of [
      ['workerThreads.MessagePort.prototype', 'postMessage', 'MessagePort.prototype.postMessage'], // the last one
      ['workerThreads', 'Worker', 'worker_threads.Worker'], // after every function of fs and child_process
      ['fs.promises', 'writeFile', 'fs/promises.writeFile'], // in the middle
      ['fs', 'access', 'fs.access'], // the first one
    ] as const) {
      it(`${build}: ${label} read-only: ERR_CWDKIT_INSTALL_REFUSED naming it, every original back`, async () => {
        const report = await attempt(build, ownerCode, target);
        expect(report.failed).toBeUndefined();
        expect(report.changed, 'what the failed install left replaced').toEqual([]);
        expect(report.thrown).toEqual({
          code: 'ERR_CWDKIT_INSTALL_REFUSED',
          message: `install(): thread-cwd cannot cover ${label} in this runtime (it cannot be replaced): nothing was covered`,
        });
        expect(report.installed).toBeNull();
        expect(report.named).toBe(true);
        expect(report.afterwards).toBe(packages);
      });
    }
  }
});
