/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Student's t, two-sided 95% (the 0.975 quantile), for 1 to 30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The 0.975 quantile of Student's t with `df` degrees of freedom (beyond 30: 40, 60, 120, then the normal). */
export function t975(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  if (df <= 30) return T975[df - 1] as number;
  if (df <= 40) return 2.021;
  if (df <= 60) return 2.0;
  if (df <= 120) return 1.98;
  return 1.96;
}

/** A ratio with its 95% confidence interval; low and high are absent with a single round. */
export interface Interval {
  readonly estimate: number;
  readonly low?: number;
  readonly high?: number;
  readonly n: number;
}

/**
 * The geometric mean of per-round ratios with a 95% confidence interval from Student's t on their logarithms: ratios
 * multiply, so 0.5× and 2× are equally far from 1. Each ratio was measured within one process (a row against the
 * baseline of the same run).
 */
export function ratioInterval(ratios: readonly number[]): Interval | undefined {
  const logs = ratios.filter((ratio) => Number.isFinite(ratio) && ratio > 0).map(Math.log);
  const n = logs.length;
  if (n === 0) return undefined;
  const mean = logs.reduce((sum, value) => sum + value, 0) / n;
  if (n === 1) return { estimate: Math.exp(mean), n };
  const variance = logs.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  const half = t975(n - 1) * Math.sqrt(variance / n);
  return { estimate: Math.exp(mean), low: Math.exp(mean - half), high: Math.exp(mean + half), n };
}

/** An interval that holds 1: the data cannot tell the row from its baseline ("no difference"). */
export function holdsOne(interval: Interval | undefined): boolean {
  return interval?.low !== undefined && interval.high !== undefined && interval.low <= 1 && interval.high >= 1;
}

/** Fewest processes in which two modes are looked for, fewest in each, and how far apart at least. */
export const MODES = { processes: 6, each: 3, apart: 1.1 } as const;

/**
 * Two modes of per-process ratios, low then high, when the processes fall into two clusters: the widest gap between
 * neighbours (on the log scale) is at least 10% and wider than either cluster's own range, with three processes or
 * more on each side (two processes 10% above eight others, seen at load 13, are a tail, not a mode). Some rows are bimodal by nature from one process to the next (where V8 placed the code: in the
 * 2026-12-01e recording mutex's cached cwd() read 1.55 ns in 4 of 10 processes, 1.92 in the 6 others); their geometric
 * mean is a figure no process measured, and it moves with how many processes landed in each mode.
 */
export function modesOf(ratios: readonly number[]): readonly [Interval, Interval] | undefined {
  const logs = ratios
    .filter((ratio) => Number.isFinite(ratio) && ratio > 0)
    .map(Math.log)
    .sort((a, b) => a - b);
  if (logs.length < MODES.processes) return undefined;
  let at = 0;
  let gap = 0;
  for (let i = 1; i < logs.length; i++) {
    const step = (logs[i] as number) - (logs[i - 1] as number);
    if (step > gap) [at, gap] = [i, step];
  }
  const low = logs.slice(0, at);
  const high = logs.slice(at);
  if (low.length < MODES.each || high.length < MODES.each) return undefined;
  const range = (values: number[]) => (values[values.length - 1] as number) - (values[0] as number);
  if (gap < Math.log(MODES.apart) || gap <= Math.max(range(low), range(high))) return undefined;
  const interval = (values: number[]) => ratioInterval(values.map(Math.exp)) as Interval;
  return [interval(low), interval(high)];
}
