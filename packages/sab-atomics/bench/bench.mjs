// npm run build && node bench/bench.mjs: cwd() on the main thread and in a worker, against baselines measured in
// the same run (ratios are what to compare; absolute numbers move with the machine).
import process from 'node:process';
import { isMainThread, Worker } from 'node:worker_threads';
import { createProvider } from '@cwdkit/sab-atomics';
import { bench, do_not_optimize, run, summary } from 'mitata';

const provider = createProvider();
provider.cwd();

if (isMainThread) {
  const cached = process.cwd();
  const closure = () => cached;
  console.log('# main thread');
  summary(() => {
    bench('bare cached-string closure', () => do_not_optimize(closure()));
    bench('sab-atomics cwd()', () => do_not_optimize(provider.cwd()));
    bench('process.cwd()', () => do_not_optimize(process.cwd()));
  });
  await run();
  await new Promise((resolve, reject) => new Worker(new URL(import.meta.url)).on('exit', resolve).on('error', reject));
} else {
  console.log('# worker');
  summary(() => {
    bench('sab-atomics cwd()', () => do_not_optimize(provider.cwd()));
    bench("the worker's process.cwd()", () => do_not_optimize(process.cwd()));
  });
  await run();
}
