// A worker thread that measures rows of its own with the engine: the steady-state hot path (worker-hot), the miss path
// (worker-miss), and the hot path of a worker whose main thread never loaded the strategy (cold-worker).
import { parentPort, workerData } from 'node:worker_threads';
import { readOsCwd, type StrategyDefinition } from '@cwdkit/core';
import { baselineCwd } from './fixtures.js';
import { controlOf, measureRows, mutableCacheRow, type RowSpec } from './measure.js';

/** What the main thread asks for. */
export interface WorkerRowsData {
  /** The strategy module's URL (LoadedStrategy.url). */
  readonly strategy: string;
  readonly kind: 'hot' | 'miss';
  readonly reverse: boolean;
  readonly minCpuTimeMs: number;
}

const data = workerData as WorkerRowsData;
const port = parentPort as NonNullable<typeof parentPort>;
try {
  const definition = ((await import(data.strategy)) as { default: StrategyDefinition<unknown> }).default;
  const provider = definition.create();
  let rows: RowSpec[];
  if (data.kind === 'hot') {
    const baseline: RowSpec = {
      key: 'baseline',
      label: `the worker's ${baselineCwd.cwdLabel}`,
      role: 'baseline',
      fn: baselineCwd.cwd,
    };
    rows = [
      baseline,
      mutableCacheRow(() => readOsCwd()),
      { key: 'provider', label: 'provider.cwd() in a worker', role: 'subject', fn: () => provider.cwd() },
      controlOf(baseline),
    ];
  } else {
    // invalidate() forgets every cache, so the next cwd() takes the miss path of a chdir behind the provider's back. For
    // sab-atomics that is also what a main-thread chdir causes; mutex instead copies a main-thread chdir out of shared
    // memory, a path this row does not take: worker-after-chdir (worker-read.ts) measures that one.
    const baseline: RowSpec = { key: 'baseline', label: 'readOsCwd() (an OS read)', role: 'baseline', fn: readOsCwd };
    rows = [
      baseline,
      {
        key: 'provider',
        label: 'invalidate() + provider.cwd() in a worker',
        role: 'subject',
        fn: () => {
          provider.invalidate();
          return provider.cwd();
        },
      },
      controlOf(baseline),
    ];
  }
  const results = await measureRows(rows, { reverse: data.reverse, minCpuTimeMs: data.minCpuTimeMs } as never);
  port.postMessage({ rows: results, capabilities: provider.capabilities, cwd: provider.cwd(), os: readOsCwd() });
  provider.close();
} catch (error) {
  port.postMessage({ error: String((error as Error)?.stack ?? error) });
}
