import { once } from 'node:events';
import process from 'node:process';
import { Worker } from 'node:worker_threads';
import { tempDirs } from '../fixtures.js';
import { measureRows, same } from '../measure.js';
import type { Check, Measurement, RowResult, RowRole, Scenario, StaleCount } from '../scenario.js';

/** Directories in the ring: far more than a reader's window of generations, so that a stale read can be told. */
const RING = 64;
/** A reader that never reports would leave the chdir loop spinning. */
const PHASE_LIMIT_MS = 120_000;

/** What a reader (worker-reader.ts) sends back after one phase. */
export interface ReaderReport extends StaleCount {
  readonly stats?: Measurement;
  readonly error?: string;
}

interface Phase {
  readonly key: string;
  readonly label: string;
  readonly role: RowRole;
  /** Who answers in the readers and who changes directory on the main thread. */
  readonly source: 'runtime' | 'provider';
}

/** The readers' rows, as one: the mean of their medians, the lowest min, the highest p99. */
export function combineReaders(reports: readonly ReaderReport[]): { stats: Measurement; stale: StaleCount } {
  const stats = reports.map((report) => report.stats as Measurement);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    stats: {
      p50: mean(stats.map((s) => s.p50)),
      min: Math.min(...stats.map((s) => s.min)),
      p99: Math.max(...stats.map((s) => s.p99)),
      avg: mean(stats.map((s) => s.avg)),
      samples: stats.reduce((sum, s) => sum + s.samples, 0),
      opsPerSample: Math.min(...stats.map((s) => s.opsPerSample)),
    },
    stale: {
      reads: reports.reduce((sum, report) => sum + report.reads, 0),
      stale: reports.reduce((sum, report) => sum + report.stale, 0),
    },
  };
}

export const workerRead: Scenario = {
  name: 'worker-read',
  description: 'worker threads read cwd() while the main thread chdirs: ns per read and stale reads',
  claim:
    "Node 20's worker cwd cache is racy (nodejs/node#61664, fixed in Node 24): stale reads; Bun's workers never see a chdir",
  async run(context) {
    const { dirs, remove } = tempDirs(RING);
    // Created on the main thread before any worker, so that the workers find its shared memory (trap 3).
    const provider = context.strategy.definition.create();
    // [0]: the published generation (dirs[g % RING] is current once g is stored); [1]: readers done with the phase.
    const shared = new Int32Array(new SharedArrayBuffer(8));
    const workers = Array.from(
      { length: context.workers },
      () =>
        new Worker(new URL('./worker-reader.js', import.meta.url), {
          workerData: {
            strategy: context.strategy.url,
            memory: shared.buffer,
            dirs,
            minCpuTimeMs: context.minCpuTimeMs,
          },
        }),
    );
    let generation = 0;
    const publish = (chdir: (directory: string) => void) => {
      chdir(dirs[generation % RING] as string);
      Atomics.store(shared, 0, generation); // after chdir has returned (trap 1)
    };

    async function runPhase(phase: Phase): Promise<RowResult> {
      const chdir =
        phase.source === 'provider' ? (directory: string) => provider.chdir(directory) : process.chdir.bind(process);
      if (phase.source === 'provider') provider.invalidate(); // the runtime's phase changed directory behind its back
      publish(chdir);
      Atomics.store(shared, 1, 0);
      const replies = workers.map((worker) => once(worker, 'message') as Promise<[ReaderReport]>);
      for (const worker of workers) worker.postMessage({ source: phase.source });
      const deadline = Date.now() + PHASE_LIMIT_MS;
      while (Atomics.load(shared, 1) < workers.length) {
        generation++;
        publish(chdir);
        if ((generation & 1023) === 0 && Date.now() > deadline)
          throw new Error('worker-read: the readers did not finish');
      }
      const reports = (await Promise.all(replies)).map(([report]) => report);
      const failed = reports.find((report) => report.error !== undefined);
      if (failed) throw new Error(`worker-read: a reader failed: ${failed.error}`);
      return { key: phase.key, label: phase.label, role: phase.role, ...combineReaders(reports) };
    }

    try {
      await Promise.all(workers.map((worker) => once(worker, 'message'))); // each reader has loaded the strategy
      const [noop] = await measureRows([], context);
      const phases: Phase[] = [
        { key: 'baseline', label: 'process.cwd() (the runtime)', role: 'baseline', source: 'runtime' },
        { key: 'provider', label: 'provider.cwd()', role: 'subject', source: 'provider' },
        { key: 'control', label: 'process.cwd() (the runtime, A/A)', role: 'control', source: 'runtime' },
      ];
      const rows: RowResult[] = [noop as RowResult];
      for (const phase of context.reverse ? phases.reverse() : phases) rows.push(await runPhase(phase));

      const subject = rows.find((row) => row.key === 'provider')?.stale as StaleCount;
      const checks: Check[] = [];
      if (provider.capabilities.workerCoherent) {
        checks.push(same('no stale read from a workerCoherent strategy', subject.stale, 0));
      }
      return { rows, checks };
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
      provider.close();
      remove();
    }
  },
};
