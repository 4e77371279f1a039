import { once } from 'node:events';
import process from 'node:process';
import { Worker } from 'node:worker_threads';
import type { CwdProvider } from '@cwdkit/core';
import { tempDirs } from '../fixtures.js';
import { measureRows, same } from '../measure.js';
import type { Check, Measurement, RowResult, RowRole, Scenario, ScenarioContext, StaleCount } from '../scenario.js';
import type { ReaderRequest } from '../worker-reader.js';

/** Directories in the ring: far more than a reader's window of generations, so that a stale read can be told. */
const RING = 64;
/**
 * Each side of the lockstep spins this long (~0.1 ms) for the other, then sleeps in Atomics.wait: on a quiet machine a
 * handoff (one chdir) ends within the spin, so the timed read never follows a syscall of its own; on a busy one a thread
 * that spins would hold the core the other needs.
 */
export const LOCKSTEP_SPINS = 1 << 16;
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

interface Readers {
  /** Created on the main thread before any reader, so that the readers find its shared memory (trap 3). */
  readonly provider: CwdProvider;
  /**
   * One phase: every reader gets `request`, and the main thread changes to `dirs[g % RING]` and only then publishes `g`
   * (trap 1), through the provider for a 'provider' request and behind its back otherwise, until every reader is done.
   * A 'storm' publishes all along; an 'after-chdir' phase (one reader) publishes the next only once the reader has
   * acknowledged the last, so that each of its reads is the first after a chdir.
   */
  phase(request: ReaderRequest): Promise<ReaderReport[]>;
}

/**
 * The main thread's side of worker-reader.ts: a ring of directories, the provider, `count` readers that have loaded the
 * strategy, and shared memory: [0] the published generation (dirs[g % RING] is current once g is stored), [1] readers
 * done with the phase, [2] the generation the reader last acknowledged (after-chdir).
 */
async function withReaders<T>(
  context: ScenarioContext,
  scenario: string,
  count: number,
  body: (readers: Readers) => Promise<T>,
): Promise<T> {
  const { dirs, remove } = tempDirs(RING);
  const provider = context.strategy.definition.create();
  const shared = new Int32Array(new SharedArrayBuffer(12));
  const workers = Array.from(
    { length: count },
    () =>
      new Worker(new URL('./worker-reader.js', import.meta.url), {
        workerData: { strategy: context.strategy.url, memory: shared.buffer, dirs, minCpuTimeMs: context.minCpuTimeMs },
      }),
  );
  let generation = 0;
  const publish = (chdir: (directory: string) => void) => {
    chdir(dirs[generation % RING] as string);
    Atomics.store(shared, 0, generation); // after chdir has returned (trap 1)
    Atomics.notify(shared, 0);
  };

  async function phase(request: ReaderRequest): Promise<ReaderReport[]> {
    const chdir =
      request.source === 'provider' ? (directory: string) => provider.chdir(directory) : process.chdir.bind(process);
    if (request.source === 'provider') provider.invalidate(); // the other phases changed directory behind its back
    publish(chdir);
    Atomics.store(shared, 1, 0);
    const replies = workers.map((worker) => once(worker, 'message') as Promise<[ReaderReport]>);
    for (const worker of workers) worker.postMessage(request);
    const lockstep = request.mode === 'after-chdir';
    const deadline = Date.now() + PHASE_LIMIT_MS;
    let waiting = 0; // spins since the last publish, in lockstep
    for (let spins = 1; Atomics.load(shared, 1) < workers.length; spins++) {
      const acknowledged = Atomics.load(shared, 2);
      if (!lockstep || acknowledged === generation) {
        generation++;
        publish(chdir);
        waiting = 0;
      } else if (++waiting > LOCKSTEP_SPINS) {
        Atomics.wait(shared, 2, acknowledged, 1); // the reader is not running: let it have the core
      }
      if ((spins & 1023) === 0 && Date.now() > deadline) throw new Error(`${scenario}: the readers did not finish`);
    }
    const reports = (await Promise.all(replies)).map(([report]) => report);
    const failed = reports.find((report) => report.error !== undefined);
    if (failed) throw new Error(`${scenario}: a reader failed: ${failed.error}`);
    return reports;
  }

  try {
    await Promise.all(workers.map((worker) => once(worker, 'message'))); // each reader has loaded the strategy
    return await body({ provider, phase });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
    provider.close();
    remove();
  }
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
  // Half its processes stayed off the A/A gate after two re-runs (2026-12-01b): re-runs cost a third of the
  // recording's time there and bought no steadiness. Its point is the stale count (every process checks a coherent
  // strategy for none), which 6 rounds of millions of reads give as well as 10.
  aaRetries: 0,
  rounds: 6,
  description: 'worker threads read cwd() while the main thread chdirs: ns per read and stale reads',
  claim:
    "Node 20's worker cwd cache is racy (nodejs/node#61664, fixed in Node 24): stale reads; Bun's workers never see a chdir",
  run(context) {
    return withReaders(context, 'worker-read', context.workers, async ({ provider, phase }) => {
      const [noop] = await measureRows([], context);
      const phases: Phase[] = [
        { key: 'baseline', label: 'process.cwd() (the runtime)', role: 'baseline', source: 'runtime' },
        { key: 'provider', label: 'provider.cwd()', role: 'subject', source: 'provider' },
        { key: 'control', label: 'process.cwd() (the runtime, A/A)', role: 'control', source: 'runtime' },
      ];
      const rows: RowResult[] = [noop as RowResult];
      for (const { source, ...row } of context.reverse ? phases.reverse() : phases) {
        rows.push({ ...row, ...combineReaders(await phase({ mode: 'storm', source })) });
      }

      const subject = rows.find((row) => row.key === 'provider')?.stale as StaleCount;
      const checks: Check[] = [];
      if (provider.capabilities.workerCoherent) {
        checks.push(same('no stale read from a workerCoherent strategy', subject.stale, 0));
      }
      return { rows, checks };
    });
  },
};

/** Reads per row of worker-after-chdir at least, whatever the budget: each is one sample, and the median needs many. */
const AFTER_CHDIR_MIN_SAMPLES = 2_000;
/** And more with a larger budget: reads per ms of minCpuTimeMs (at ~4 µs a read here, they take about that long). */
const AFTER_CHDIR_SAMPLES_PER_MS = 200;

export const workerAfterChdir: Scenario = {
  name: 'worker-after-chdir',
  // Its intervals were within ±3% at 10 rounds (2026-12-01b): 6 keep them tight and the recording within its time.
  rounds: 6,
  description: "a worker's first cwd() after the main thread changed directory, against an OS read",
  claim:
    "@cwdkit/mutex's README: a worker copies a main-thread chdir out of shared memory, no syscall; sab-atomics' worker miss is one OS read",
  async run(context) {
    const probe = context.strategy.definition.create();
    const { workerCoherent } = probe.capabilities;
    probe.close();
    if (!workerCoherent) {
      // A worker of such a strategy may keep answering the old directory: its first read after a chdir is no miss.
      const detail = 'not measured: the strategy is not workerCoherent on this runtime';
      return { rows: [], checks: [{ name: 'worker-after-chdir needs a workerCoherent strategy', ok: true, detail }] };
    }
    const samples = Math.max(AFTER_CHDIR_MIN_SAMPLES, Math.round(AFTER_CHDIR_SAMPLES_PER_MS * context.minCpuTimeMs));
    return withReaders(context, 'worker-after-chdir', 1, async ({ phase }) => {
      const measured = async (key: string, label: string, role: RowRole, source: 'none' | 'os' | 'provider') => {
        const [report] = (await phase({ mode: 'after-chdir', source, samples })) as [ReaderReport];
        const { reads, stale } = report;
        return {
          key,
          label,
          role,
          stats: report.stats as Measurement,
          ...(reads > 0 ? { stale: { reads, stale } } : {}),
        };
      };
      const baseline = 'readOsCwd() after process.chdir() (an OS read)';
      const rows: RowResult[] = [await measured('noop', 'no-op (the two clock reads)', 'noop', 'none')];
      const phases = [
        () => measured('baseline', baseline, 'baseline', 'os'),
        () => measured('provider', 'provider.cwd() after provider.chdir()', 'subject', 'provider'),
        () => measured('control', `${baseline} (A/A)`, 'control', 'os'),
      ];
      for (const run of context.reverse ? phases.reverse() : phases) rows.push(await run());

      const wrong = (keys: string[]) =>
        rows.filter((row) => keys.includes(row.key)).reduce((sum, row) => sum + (row.stale?.stale ?? 0), 0);
      const checks: Check[] = [
        same('every OS read is the directory just published', wrong(['baseline', 'control']), 0),
        same('no wrong read from a workerCoherent strategy', wrong(['provider']), 0),
      ];
      return { rows, checks };
    });
  },
};
