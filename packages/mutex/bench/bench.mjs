// npm run build && node bench/bench.mjs: cwd() on the main thread and in a worker, and a worker's miss path (copy
// out of shared memory + decode) against a raw OS read, with baselines measured in the same run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { readOsCwd } from '@cwdkit/core';
import { createProvider } from '@cwdkit/mutex';
import { bench, do_not_optimize, run, summary } from 'mitata';

const provider = createProvider();
provider.cwd();

if (isMainThread) {
  const cached = process.cwd();
  const closure = () => cached;
  console.log('# main thread');
  summary(() => {
    bench('bare cached-string closure', () => do_not_optimize(closure()));
    bench('mutex cwd()', () => do_not_optimize(provider.cwd()));
    bench('process.cwd()', () => do_not_optimize(process.cwd()));
  });
  await run();
  const worker = (label) =>
    new Promise((resolve, reject) =>
      new Worker(new URL(import.meta.url), { workerData: label }).on('exit', resolve).on('error', reject),
    );
  await worker(`${Buffer.byteLength(cached)}-byte cwd`);
  // A cwd near the shared capacity (1024 bytes), in components under NAME_MAX.
  const root = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-bench-')));
  const deep = path.join(root, ...Array.from({ length: 5 }, () => 'd'.repeat(195)));
  fs.mkdirSync(deep, { recursive: true });
  provider.chdir(deep);
  try {
    await worker(`${Buffer.byteLength(deep)}-byte cwd`);
  } finally {
    provider.chdir(cached);
    fs.rmSync(root, { recursive: true });
  }
} else {
  console.log(`# worker, ${workerData}`);
  // The thread's state (see threadState in @cwdkit/core): forgetting the sequence number it last saw sends the next
  // cwd() down the miss path, as a main-thread chdir would.
  const state = globalThis[Symbol.for('cwdkit.mutex.v1')];
  summary(() => {
    bench('mutex cwd()', () => do_not_optimize(provider.cwd()));
    bench("the worker's process.cwd()", () => do_not_optimize(process.cwd()));
  });
  summary(() => {
    bench('miss: copy out of shared memory + decode', () => {
      state.seen = -1;
      do_not_optimize(provider.cwd());
    });
    bench('raw OS read (readOsCwd)', () => do_not_optimize(readOsCwd()));
  });
  await run();
}
