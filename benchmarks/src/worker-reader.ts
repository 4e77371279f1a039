// A reader thread of the worker-read and worker-after-chdir scenarios: loads the strategy, then does each phase the main
// thread asks for. 'storm' (worker-read): reads the cwd in the engine's loop while the main thread chdirs all along,
// bracketing each read with two loads of the published generation. 'after-chdir' (worker-after-chdir): in lockstep with
// the main thread, waits for each new generation and times the one read that follows it, then acknowledges it.
// Shared memory: [0] the published generation, [1] readers done with the phase, [2] the generation last acknowledged.
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import { readOsCwd, type StrategyDefinition } from '@cwdkit/core';
import { compileRow, measureEach, measureFn, sink } from './measure.js';
import type { Measurement } from './scenario.js';
import { LOCKSTEP_SPINS } from './scenarios/worker-read.js';
import { isStaleAfterChdir, isStaleRead } from './stale.js';

interface ReaderData {
  readonly strategy: string;
  readonly memory: SharedArrayBuffer;
  readonly dirs: string[];
  readonly minCpuTimeMs: number;
}

/** What the main thread asks of a reader for one phase. */
export type ReaderRequest =
  | { readonly mode: 'storm'; readonly source: 'runtime' | 'provider' }
  | {
      readonly mode: 'after-chdir';
      /** 'none': the no-op (the clock reads alone); 'os': readOsCwd(); 'provider': provider.cwd(). */
      readonly source: 'none' | 'os' | 'provider';
      /** Timed reads, each after a chdir of its own (untimed ones come first: WARM_READS). */
      readonly samples: number;
    };

/**
 * Untimed reads before an after-chdir phase's timed ones, through the same protocol (only a chdir makes the next read a
 * miss), bounded as the engine's warm-up is (measure.ts): at most 50,000, or 4× the row's budget, at most 100 ms; and
 * at least 2,000, since V8 took about 1,500 reads here to reach its optimizing tier (the no-op fell from 230 ns to 50).
 */
const WARM_READS = { min: 2_000, max: 50_000 };
/** A main thread that stops publishing would leave this reader spinning (a busy Deno worker ignores terminate()). */
const WAIT_LIMIT_MS = 120_000;

const { strategy, memory, dirs, minCpuTimeMs } = workerData as ReaderData;
const shared = new Int32Array(memory);
const port = parentPort as NonNullable<typeof parentPort>;
const definition = ((await import(strategy)) as { default: StrategyDefinition<unknown> }).default;
const provider = definition.create();

interface Counts {
  reads: number;
  stale: number;
}

async function storm(source: 'runtime' | 'provider', counts: Counts): Promise<Measurement> {
  if (source === 'provider') provider.invalidate();
  const read = source === 'provider' ? () => provider.cwd() : () => process.cwd();
  return measureFn(() => {
    const before = Atomics.load(shared, 0);
    const value = read();
    const after = Atomics.load(shared, 0);
    counts.reads++;
    if (isStaleRead(value, before, after, dirs)) counts.stale++;
  }, minCpuTimeMs);
}

function afterChdir(source: 'none' | 'os' | 'provider', samples: number, counts: Counts): Measurement {
  // The engine's compiled row: its own call site and clock reads, its result consumed (and flattened) into the sink.
  const fn = source === 'provider' ? () => provider.cwd() : source === 'os' ? readOsCwd : () => undefined;
  const row = compileRow(fn, `after-chdir ${source}`);
  let seen = Atomics.load(shared, 0);
  Atomics.store(shared, 2, seen); // ready: the main thread publishes the phase's first chdir
  const deadline = Date.now() + WAIT_LIMIT_MS;
  /** Waits for the next generation, times one read, judges it, acknowledges it. */
  const next = (): number => {
    let generation = Atomics.load(shared, 0);
    for (let spins = 1; generation === seen; spins++) {
      if (spins > LOCKSTEP_SPINS) {
        if (Date.now() > deadline) throw new Error('the main thread stopped publishing');
        Atomics.wait(shared, 0, seen, 1);
      }
      generation = Atomics.load(shared, 0);
    }
    seen = generation;
    const ns = row.block(1); // one read, between two clock reads
    if (source !== 'none') {
      counts.reads++;
      if (isStaleAfterChdir(sink.value as string, generation, dirs)) counts.stale++;
    }
    Atomics.store(shared, 2, generation);
    Atomics.notify(shared, 2);
    return ns;
  };
  const warmUntil = performance.now() + Math.min(4 * minCpuTimeMs, 100);
  for (let warm = 0; warm < WARM_READS.max && (warm < WARM_READS.min || performance.now() < warmUntil); warm++) next();
  const timings: number[] = [];
  for (let sample = 0; sample < samples; sample++) timings.push(next());
  return measureEach(timings);
}

port.on('message', async (request: ReaderRequest) => {
  const counts: Counts = { reads: 0, stale: 0 };
  try {
    const stats =
      request.mode === 'storm'
        ? await storm(request.source, counts)
        : afterChdir(request.source, request.samples, counts);
    port.postMessage({ stats, ...counts });
  } catch (error) {
    port.postMessage({ ...counts, error: String((error as Error)?.stack ?? error) });
  } finally {
    Atomics.add(shared, 1, 1);
  }
});
port.postMessage({ ready: true });
