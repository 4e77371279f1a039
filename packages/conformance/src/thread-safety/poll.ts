// poll.js <strategy module>
// A worker polls cwd() in a tight loop, no other synchronisation, while the main thread chdirs once. A strategy whose
// check on the hot path is a plain read of shared memory proves here that the engine does not hoist it out of the
// loop (the worker would spin for ever). Prints a JSON line, and exits on its own.
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { StrategyDefinition } from '@cwdkit/core';
import { scratchDirectories } from './scratch.js';

const module = (isMainThread ? process.argv[2] : workerData) as string;
const provider = ((await import(module)) as { default: StrategyDefinition<unknown> }).default.create();
if (isMainThread) {
  const { dirs, remove } = scratchDirectories(1, 'cwdkit-poll-');
  const target = dirs[0] as string;
  const home = process.cwd();
  const worker = new Worker(new URL(import.meta.url), { workerData: module });
  await new Promise((resolve) => worker.once('message', resolve));
  await new Promise((resolve) => setTimeout(resolve, 300)); // long enough for the loop to be optimised
  provider.chdir(target);
  const seen = await new Promise((resolve) => worker.once('message', resolve));
  provider.chdir(home);
  remove();
  console.log(JSON.stringify({ seen: seen === target }));
} else {
  const before = provider.cwd();
  parentPort?.postMessage('polling');
  while (provider.cwd() === before);
  parentPort?.postMessage(provider.cwd());
}
