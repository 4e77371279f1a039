import type { RowResult, RowRole, StaleCount } from '@cwdkit/benchmarks';
import type { JobRecord } from './run.js';
import { type Interval, median, modesOf, ratioInterval } from './stats.js';

/** One line of the report: a row of a scenario on a runtime, over every round. */
export interface RowSummary {
  readonly runtime: string;
  readonly scenario: string;
  /** The strategy whose row this is; absent for the rows every process measures (no-op, baseline, reference, control). */
  readonly strategy?: string;
  readonly key: string;
  readonly label: string;
  readonly role: RowRole;
  /** Measurements pooled: rounds for a strategy's row, every process of the scenario for the shared rows. */
  readonly n: number;
  /** ns per op: the median of the per-process p50s and p99s, the lowest min. */
  readonly p50: number;
  readonly min: number;
  readonly p99: number;
  /** Speed-up: the baseline's time ÷ this row's, both from the same process (above 1 is faster). */
  readonly speedup?: Interval;
  /**
   * The speed-up's two modes, low then high, when the processes fall into two clusters (modesOf): the report shows them
   * instead of `speedup`, which averages them.
   */
  readonly modes?: readonly [Interval, Interval];
  /** The scenario's reference time ÷ this row's (cwd-hot: a real mutable cache; resolve: the join alone; 1 = as fast). */
  readonly vsReference?: Interval;
  /** Processes whose A/A control stayed more than 10% off its baseline after being measured again. */
  readonly aaOff?: number;
  readonly stale?: StaleCount;
  /** Rows that timed whole processes (startup, real-*): their peak RSS and what they add over the baseline. */
  readonly processes?: ProcessSummary;
  /** Why the figure cannot be read at face value. */
  readonly flag?: string;
}

export interface ProcessSummary {
  /** Runs timed, over every process. */
  readonly runs: number;
  /** The median over processes of each one's median peak RSS, when GNU time was there to measure it. */
  readonly peakRssBytes?: number;
  /** The median over processes of (this row − the baseline of the same process): its p50 time and its peak RSS. */
  readonly extraNs?: number;
  readonly extraRssBytes?: number;
}

interface Group {
  readonly first: RowResult;
  readonly runtime: string;
  readonly scenario: string;
  readonly strategy?: string;
  p50: number[];
  min: number[];
  p99: number[];
  speedup: number[];
  vsReference: number[];
  aaOff: number;
  quantum: number[];
  reads: number;
  stale: number;
  hasStale: boolean;
  runs: number;
  rss: number[];
  extraNs: number[];
  extraRss: number[];
  hasProcesses: boolean;
}

/** What a figure at timer resolution means here. */
export const FLAGS = {
  noop: 'within 2× of the no-op: the harness floor, not the operation',
  timer: 'under 10 ticks of the timer per op',
} as const;

/** Pools every process's rows into the report's lines, in the order they were first seen. */
export function summarize(records: readonly JobRecord[]): RowSummary[] {
  const groups = new Map<string, Group>();
  // The floor of each scenario on each runtime: the median no-op of all its processes, steadier than any one process's.
  // Per scenario, since a no-op is timed the way its scenario times (worker-after-chdir's is two clock reads).
  const noops = new Map<string, number[]>();
  const floorOf = (runtime: string, scenario: string) => `${runtime}\u0000${scenario}`;
  for (const record of records) {
    const result = record.result;
    if (!result) continue;
    const row = (role: RowRole) => result.rows.find((candidate) => candidate.role === role);
    const baseline = row('baseline')?.stats.p50;
    const baselineRss = row('baseline')?.processes?.peakRssBytes;
    const reference = row('reference')?.stats.p50;
    const noop = row('noop')?.stats.p50;
    const floor = floorOf(record.runtime, record.scenario);
    if (noop !== undefined) noops.set(floor, [...(noops.get(floor) ?? []), noop]);
    for (const current of result.rows) {
      const own = current.role === 'subject';
      const id = [record.runtime, record.scenario, own ? record.strategy : '', current.key].join('\u0000');
      let group = groups.get(id);
      if (!group) {
        group = {
          first: current,
          runtime: record.runtime,
          scenario: record.scenario,
          ...(own ? { strategy: record.strategy } : {}),
          p50: [],
          min: [],
          p99: [],
          speedup: [],
          vsReference: [],
          aaOff: 0,
          quantum: [],
          reads: 0,
          stale: 0,
          hasStale: false,
          runs: 0,
          rss: [],
          extraNs: [],
          extraRss: [],
          hasProcesses: false,
        };
        groups.set(id, group);
      }
      const { stats } = current;
      group.p50.push(stats.p50);
      group.min.push(stats.min);
      group.p99.push(stats.p99);
      group.quantum.push(result.timerResolutionNs / stats.opsPerSample);
      if (baseline && current.role !== 'baseline' && current.role !== 'noop') group.speedup.push(baseline / stats.p50);
      if (reference && own) group.vsReference.push(reference / stats.p50);
      if (record.aaOff && current.role === 'control') group.aaOff++;
      if (current.processes) {
        const { runs, peakRssBytes } = current.processes;
        group.hasProcesses = true;
        group.runs += runs;
        if (peakRssBytes !== undefined) group.rss.push(peakRssBytes);
        if (current.role !== 'baseline' && baseline !== undefined) group.extraNs.push(stats.p50 - baseline);
        if (current.role !== 'baseline' && peakRssBytes !== undefined && baselineRss !== undefined) {
          group.extraRss.push(peakRssBytes - baselineRss);
        }
      }
      if (current.stale) {
        group.hasStale = true;
        group.reads += current.stale.reads;
        group.stale += current.stale.stale;
      }
    }
  }
  return [...groups.values()].map((group) => {
    const p50 = median(group.p50);
    const flag =
      group.first.role !== 'noop' && p50 < 2 * median(noops.get(floorOf(group.runtime, group.scenario)) ?? [])
        ? FLAGS.noop
        : p50 < 10 * median(group.quantum)
          ? FLAGS.timer
          : undefined;
    const speedup = ratioInterval(group.speedup);
    const modes = group.first.role === 'control' ? undefined : modesOf(group.speedup);
    const vsReference = ratioInterval(group.vsReference);
    const processes: ProcessSummary | undefined = group.hasProcesses
      ? {
          runs: group.runs,
          ...(group.rss.length > 0 ? { peakRssBytes: median(group.rss) } : {}),
          ...(group.extraNs.length > 0 ? { extraNs: median(group.extraNs) } : {}),
          ...(group.extraRss.length > 0 ? { extraRssBytes: median(group.extraRss) } : {}),
        }
      : undefined;
    return {
      runtime: group.runtime,
      scenario: group.scenario,
      ...(group.strategy ? { strategy: group.strategy } : {}),
      key: group.first.key,
      label: group.first.label,
      role: group.first.role,
      n: group.p50.length,
      p50,
      min: Math.min(...group.min),
      p99: median(group.p99),
      ...(speedup ? { speedup } : {}),
      ...(modes ? { modes } : {}),
      ...(vsReference ? { vsReference } : {}),
      ...(group.aaOff > 0 ? { aaOff: group.aaOff } : {}),
      ...(group.hasStale ? { stale: { reads: group.reads, stale: group.stale } } : {}),
      ...(processes ? { processes } : {}),
      ...(flag ? { flag } : {}),
    };
  });
}

/** The name a report shows for a row: the strategy for its main row, "strategy: label" for its others. */
export function rowName(row: RowSummary): string {
  if (!row.strategy) return row.label;
  return row.key === 'provider' && row.scenario !== 'napi-call' ? row.strategy : `${row.strategy}: ${row.label}`;
}
