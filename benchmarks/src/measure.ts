import { do_not_optimize, measure } from 'mitata';
import type { Measurement, RowResult, RowRole, ScenarioContext } from './scenario.js';

export { do_not_optimize };

export interface RowSpec {
  readonly key: string;
  readonly label: string;
  readonly role: RowRole;
  /** The operation; it must hand its result to do_not_optimize so that the JIT cannot drop it (trap 8). */
  readonly fn: () => void;
  /** Runs before this row is measured, outside the timing (e.g. invalidate a cache another row made stale). */
  readonly before?: () => void;
}

const globals = globalThis as { gc?: () => void; Bun?: { gc(force: boolean): void } };

/** A real collector between rows, or none: mitata's fallback allocates a gigabyte to provoke one. */
const collect: (() => void) | false =
  typeof globals.Bun?.gc === 'function'
    ? () => globals.Bun?.gc(true)
    : typeof globals.gc === 'function'
      ? () => globals.gc?.()
      : false;

const clock: () => number = (() => {
  const bun = (globalThis as { Bun?: { nanoseconds(): number } }).Bun;
  return bun ? () => bun.nanoseconds() : () => performance.now() * 1e6;
})();

/** A sample should last this long: ~100 ticks of the coarsest clock seen here (160 ns), far from a scheduler slice. */
const SAMPLE_NS = 20_000;

/** Calls before a row is measured: enough for V8 and JSC to reach their optimizing tier. */
const WARM_CALLS = 50_000;

/**
 * Runs fn until the JIT has settled (mitata's own warm-up is a few calls; a time budget alone is not enough: cold,
 * path.resolve costs 15 µs a call, warm 0.25 µs), then returns the cost of one warm call, from ever larger blocks of
 * calls until one lasts a sample. Slow operations stop warming at `budgetNs`.
 */
function warmUp(fn: () => void, budgetNs: number): number {
  const start = clock();
  for (let calls = 0; calls < WARM_CALLS && clock() - start < budgetNs; calls += 64) {
    for (let i = 0; i < 64; i++) fn();
  }
  let calls = 64;
  const block = () => {
    const before = clock();
    for (let i = 0; i < calls; i++) fn();
    return clock() - before;
  };
  while (block() < SAMPLE_NS && calls < 1 << 16) calls *= 2;
  // The fastest of a few blocks: the first can include a deoptimization, any can include a preemption.
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) fastest = Math.min(fastest, block());
  return fastest / calls;
}

/** One row through mitata, reduced to what the report keeps. */
export async function measureFn(fn: () => void, minCpuTimeMs: number): Promise<Measurement> {
  const cost = warmUp(fn, Math.min(4 * minCpuTimeMs, 100) * 1e6);
  // Batch as many calls per sample as make SAMPLE_NS (a multiple of mitata's unroll of 4, at most its 4096). Under
  // 20 ns the estimate is mostly the estimating loop's own call overhead (mitata's loop inlines): take the most.
  const batch = cost < 20 ? 4096 : Math.max(4, Math.min(4096, 4 * 2 ** Math.floor(Math.log2(SAMPLE_NS / cost / 4))));
  const stats = await measure(fn, {
    min_cpu_time: minCpuTimeMs * 1e6,
    gc: collect,
    batch_samples: batch,
    // mitata batches only when one warm call is under this; a call that costs more than a sample runs alone.
    batch_threshold: SAMPLE_NS,
  });
  return {
    p50: stats.p50,
    min: stats.min,
    p99: stats.p99,
    avg: stats.avg,
    samples: stats.samples.length,
    opsPerSample: stats.ticks / stats.samples.length,
  };
}

/** The no-op every process measures first: the cost of the harness itself. */
export const noopRow: RowSpec = { key: 'noop', label: 'no-op', role: 'noop', fn: () => do_not_optimize(undefined) };

/**
 * Measures the no-op, then the rows in the given order, or in the opposite order on odd rounds. List the baseline
 * first and the control last, so that each of the two comes first in every other round.
 */
export async function measureRows(rows: readonly RowSpec[], context: ScenarioContext): Promise<RowResult[]> {
  const ordered = [noopRow, ...(context.reverse ? [...rows].reverse() : rows)];
  const results: RowResult[] = [];
  for (const row of ordered) {
    row.before?.();
    const stats = await measureFn(row.fn, context.minCpuTimeMs);
    results.push({ key: row.key, label: row.label, role: row.role, stats });
  }
  return results;
}

/** The A/A control: the baseline's own operation, measured again as if it were another row. */
export function controlOf(baseline: RowSpec): RowSpec {
  return { ...baseline, key: 'control', label: `${baseline.label} (A/A)`, role: 'control' };
}

/** A named check: passes when `actual === expected`. */
export function same(name: string, actual: unknown, expected: unknown) {
  const ok = actual === expected;
  return ok
    ? { name, ok }
    : { name, ok, detail: `got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}` };
}

/** The smallest step of the clock mitata reads (Bun.nanoseconds, else performance.now), in nanoseconds. */
export function timerResolutionNs(): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 200; i++) {
    const start = clock();
    let next = clock();
    while (next === start) next = clock();
    smallest = Math.min(smallest, next - start);
  }
  return smallest;
}
