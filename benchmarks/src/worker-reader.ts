// A reader thread of the worker-read scenario: loads the strategy, then for each phase the main thread asks for, reads
// the cwd in a mitata loop, bracketing each read with two loads of the published generation.
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import type { StrategyDefinition } from '@cwdkit/core';
import { measureFn } from './measure.js';
import { isStaleRead } from './stale.js';

interface ReaderData {
  readonly strategy: string;
  readonly memory: SharedArrayBuffer;
  readonly dirs: string[];
  readonly minCpuTimeMs: number;
}

const { strategy, memory, dirs, minCpuTimeMs } = workerData as ReaderData;
const shared = new Int32Array(memory);
const port = parentPort as NonNullable<typeof parentPort>;
const definition = ((await import(strategy)) as { default: StrategyDefinition<unknown> }).default;
const provider = definition.create();

port.on('message', async ({ source }: { source: 'runtime' | 'provider' }) => {
  let reads = 0;
  let stale = 0;
  try {
    if (source === 'provider') provider.invalidate();
    const read = source === 'provider' ? () => provider.cwd() : () => process.cwd();
    const stats = await measureFn(() => {
      const before = Atomics.load(shared, 0);
      const value = read();
      const after = Atomics.load(shared, 0);
      reads++;
      if (isStaleRead(value, before, after, dirs)) stale++;
    }, minCpuTimeMs);
    port.postMessage({ stats, reads, stale });
  } catch (error) {
    port.postMessage({ reads, stale, error: String((error as Error)?.stack ?? error) });
  } finally {
    Atomics.add(shared, 1, 1);
  }
});
port.postMessage({ ready: true });
