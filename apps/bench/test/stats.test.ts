import { type RowResult, scenarios } from '@cwdkit/benchmarks';
import { describe, expect, it } from 'vitest';
import type { ChildResult } from '../src/child.js';
import { chart } from '../src/html.js';
import { formatInterval, speedupCell } from '../src/report.js';
import { aaDeviation, aaPasses, aaRetriesOf, type JobRecord, planJobs, runGatedJob } from '../src/run.js';
import { holdsOne, median, modesOf, ratioInterval, t975 } from '../src/stats.js';
import { FLAGS, summarize } from '../src/summary.js';

describe('median', () => {
  it('is the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('t975', () => {
  it("is Student's t at 0.975", () => {
    expect(t975(1)).toBe(12.706);
    expect(t975(2)).toBe(4.303);
    expect(t975(4)).toBe(2.776);
    expect(t975(30)).toBe(2.042);
    expect(t975(1000)).toBe(1.96);
    expect(() => t975(0)).toThrow(RangeError);
  });
});

describe('ratioInterval', () => {
  it('is the geometric mean with a t interval on the logarithms (worked by hand)', () => {
    // ln 1, ln 2, ln 4 = 0, a, 2a with a = ln 2: mean a, sample sd a, half-width 4.303 · a / √3 = 1.72201.
    const interval = ratioInterval([1, 2, 4]);
    expect(interval?.n).toBe(3);
    expect(interval?.estimate).toBeCloseTo(2, 12);
    expect(interval?.low).toBeCloseTo(0.357412, 5); // e^(a − 1.72201)
    expect(interval?.high).toBeCloseTo(11.1915, 3); // e^(a + 1.72201)
  });

  it('is symmetric in log space: 0.5 and 2 average to 1', () => {
    // logs ±a: mean 0, sd a√2, half-width 12.706 · a√2 / √2 = 12.706 a.
    const interval = ratioInterval([0.5, 2]);
    expect(interval?.estimate).toBeCloseTo(1, 12);
    expect(interval?.low).toBeCloseTo(2 ** -12.706, 8);
    expect(interval?.high).toBeCloseTo(2 ** 12.706, 0);
  });

  it('has a zero-width interval when every round agrees', () => {
    expect(ratioInterval([0.25, 0.25, 0.25, 0.25])).toEqual({ estimate: 0.25, low: 0.25, high: 0.25, n: 4 });
  });

  it('has no interval for one round, and nothing for none; it ignores ratios that cannot be', () => {
    const one = ratioInterval([3]);
    expect(one?.estimate).toBeCloseTo(3, 12);
    expect(one).toEqual({ estimate: one?.estimate, n: 1 });
    expect(ratioInterval([])).toBeUndefined();
    expect(ratioInterval([0, Number.NaN, Number.POSITIVE_INFINITY, 2])?.n).toBe(1);
  });
});

function row(key: string, role: RowResult['role'], p50: number, extra: Partial<RowResult> = {}): RowResult {
  return {
    key,
    label: key,
    role,
    stats: { p50, min: p50 / 2, p99: p50 * 2, avg: p50, samples: 100, opsPerSample: 1000 },
    ...extra,
  };
}

function job(strategy: 'naive' | 'sab-atomics', round: number, rows: RowResult[]): JobRecord {
  const capabilities = { workerCoherent: false, chdirFromWorker: false, externalChange: 'never' } as const;
  const result = { rows, checks: [], runtime: { name: 'node', version: '20' }, timerResolutionNs: 100, capabilities };
  return { runtime: 'node', scenario: 'cwd-hot', strategy, round, rounds: 2, reverse: round % 2 === 1, ms: 1, result };
}

describe('summarize', () => {
  const records = [
    job('sab-atomics', 0, [
      row('noop', 'noop', 0.5),
      row('baseline', 'baseline', 10),
      row('cached-string', 'reference', 0.6),
      row('provider', 'subject', 1),
      row('control', 'control', 10),
    ]),
    job('sab-atomics', 1, [
      row('noop', 'noop', 0.5),
      row('baseline', 'baseline', 20),
      row('cached-string', 'reference', 0.6),
      row('provider', 'subject', 8),
      row('control', 'control', 10),
    ]),
    job('naive', 0, [
      row('noop', 'noop', 0.5),
      row('baseline', 'baseline', 10),
      row('provider', 'subject', 10, { stale: { reads: 100, stale: 3 } }),
      row('control', 'control', 40),
    ]),
  ];
  const summary = summarize(records);
  const find = (strategy: string | undefined, key: string) =>
    summary.find((line) => line.strategy === strategy && line.key === key);

  it("pools a strategy's rounds and takes each ratio within its own process", () => {
    const sab = find('sab-atomics', 'provider');
    expect(sab).toMatchObject({ n: 2, p50: 4.5, min: 0.5, p99: 9 });
    // Speed-ups 10/1 and 20/8: geometric mean √(10 · 2.5) = 5.
    expect(sab?.speedup?.estimate).toBeCloseTo(5, 12);
    // Against the mutable cache: 0.6/1 and 0.6/8, geometric mean 0.6 / √8.
    expect(sab?.vsReference?.estimate).toBeCloseTo(0.6 / Math.sqrt(8), 10);
  });

  it('pools the shared rows over every process, and the A/A control against its own baseline', () => {
    expect(find(undefined, 'baseline')).toMatchObject({ n: 3, p50: 10, role: 'baseline' });
    expect(find(undefined, 'baseline')?.speedup).toBeUndefined();
    // Control speed-ups 1, 2, 0.25: geometric mean ∛0.5.
    expect(find(undefined, 'control')?.speedup?.estimate).toBeCloseTo(Math.cbrt(0.5), 12);
  });

  it('sums stale reads and flags figures at the floor', () => {
    expect(find('naive', 'provider')?.stale).toEqual({ reads: 100, stale: 3 });
    expect(find('sab-atomics', 'provider')?.stale).toBeUndefined();
    expect(find(undefined, 'cached-string')?.flag).toBe(FLAGS.noop); // 0.6 < 2 × 0.5
    expect(find(undefined, 'baseline')?.flag).toBeUndefined();
    // 100 ns timer / 1000 ops per sample = 0.1 ns quantum: the no-op at 0.5 ns is under 10 ticks.
    expect(find(undefined, 'noop')?.flag).toBe(FLAGS.timer);
  });

  it('holds each scenario to its own no-op: a scenario that times one read between two clock reads has a higher floor', () => {
    const lockstep = (round: number, provider: number): JobRecord => ({
      ...job('sab-atomics', round, [
        row('noop', 'noop', 50),
        row('baseline', 'baseline', 2000),
        row('provider', 'subject', provider),
      ]),
      scenario: 'worker-after-chdir',
    });
    // Pooled over both scenarios the floor would be 25 ns (the median of 0.5, 0.5, 0.5, 50, 50, 50): 0.6 and 1 ns would
    // stay flagged, and 80 ns, under 2 × 50, would not be.
    const pooled = summarize([...records, lockstep(0, 80), lockstep(1, 80), lockstep(2, 80)]);
    const line = (scenario: string, key: string) =>
      pooled.find((l) => l.scenario === scenario && l.key === key && l.role !== 'noop');
    expect(line('worker-after-chdir', 'provider')?.flag).toBe(FLAGS.noop);
    expect(line('cwd-hot', 'cached-string')?.flag).toBe(FLAGS.noop);
    const apart = summarize([...records, lockstep(0, 500), lockstep(1, 500), lockstep(2, 500)]);
    expect(apart.find((l) => l.scenario === 'worker-after-chdir' && l.key === 'provider')?.flag).toBeUndefined();
    // cwd-hot's baseline (10 ns) is not at a floor of 25 ns: it is held to cwd-hot's own 0.5.
    expect(apart.find((l) => l.scenario === 'cwd-hot' && l.key === 'baseline')?.flag).toBeUndefined();
  });

  it('skips failed jobs', () => {
    const failed: JobRecord = { ...(records[0] as JobRecord), result: undefined, error: 'exit code 1' };
    expect(summarize([failed])).toEqual([]);
  });
});

describe('planJobs', () => {
  const scenario = (name: string, strategies?: ['native']) => ({
    name,
    description: '',
    claim: '',
    ...(strategies ? { strategies } : {}),
    run: async () => ({ rows: [], checks: [] }),
  });

  it('runs a scenario to its end before the next (its table prints), every strategy once per round, in the opposite order on odd rounds', () => {
    const { jobs } = planJobs(
      { rounds: 2, runtimes: ['node', 'bun'] },
      [scenario('cwd-hot'), scenario('resolve')],
      ['naive', 'sab-atomics'],
    );
    expect(jobs.map((job) => `${job.runtime} ${job.scenario} ${job.round} ${job.strategy} ${job.reverse}`)).toEqual([
      'node cwd-hot 0 naive false',
      'node cwd-hot 0 sab-atomics false',
      'node cwd-hot 1 sab-atomics true',
      'node cwd-hot 1 naive true',
      'node resolve 0 naive false',
      'node resolve 0 sab-atomics false',
      'node resolve 1 sab-atomics true',
      'node resolve 1 naive true',
      'bun cwd-hot 0 naive false',
      'bun cwd-hot 0 sab-atomics false',
      'bun cwd-hot 1 sab-atomics true',
      'bun cwd-hot 1 naive true',
      'bun resolve 0 naive false',
      'bun resolve 0 sab-atomics false',
      'bun resolve 1 sab-atomics true',
      'bun resolve 1 naive true',
    ]);
  });

  it('runs a scenario that caps its rounds (Scenario.rounds) only that many times, and says so in each job', () => {
    const capped = { ...scenario('chdir-cwd'), rounds: 1 };
    const { jobs } = planJobs({ rounds: 3, runtimes: ['node'] }, [capped, scenario('cwd-hot')], ['naive']);
    expect(jobs.map((job) => `${job.scenario} ${job.round}/${job.rounds}`)).toEqual([
      'chdir-cwd 0/1',
      'cwd-hot 0/3',
      'cwd-hot 1/3',
      'cwd-hot 2/3',
    ]);
  });

  it('skips a scenario whose strategy is missing, with the reason', () => {
    const napi = scenario('napi-call', ['native']);
    const missing = planJobs({ rounds: 1, runtimes: ['node'] }, [napi], ['naive'], {
      native: 'is not installed (npm install @cwdkit/native)',
    });
    expect(missing.jobs).toEqual([]);
    expect(missing.skipped).toEqual([
      { scenario: 'napi-call', reason: 'needs native: @cwdkit/native is not installed (npm install @cwdkit/native)' },
    ]);
    expect(planJobs({ rounds: 1, runtimes: ['node'] }, [napi], ['naive']).skipped[0]?.reason).toBe(
      'needs native: @cwdkit/native was not selected (--strategy)',
    );
    expect(planJobs({ rounds: 1, runtimes: ['node'] }, [napi], ['naive', 'native']).jobs).toHaveLength(1);
  });
});

describe('the A/A gate', () => {
  const measured = (baseline: number, control: number): JobRecord => ({
    ...job('naive', 0, [row('baseline', 'baseline', baseline), row('control', 'control', control)]),
  });

  it('passes within ±10% either way, and fails beyond', () => {
    expect(aaPasses(aaDeviation(measured(10, 10.9).result as ChildResult))).toBe(true);
    expect(aaPasses(aaDeviation(measured(10, 9.2).result as ChildResult))).toBe(true);
    expect(aaPasses(aaDeviation(measured(10, 11.5).result as ChildResult))).toBe(false);
    expect(aaPasses(aaDeviation(measured(10, 8.5).result as ChildResult))).toBe(false);
  });

  it('measures an off process again and keeps the first that passes', async () => {
    const attempts = [measured(10, 14), measured(10, 10.2), measured(10, 10)];
    let runs = 0;
    const record = await runGatedJob(async () => attempts[runs++] as JobRecord, 2);
    expect(runs).toBe(2);
    expect(record.attempts).toBe(2);
    expect(record.aaOff).toBeUndefined();
    expect(record.result?.rows.find((r) => r.role === 'control')?.stats.p50).toBe(10.2);
  });

  it('re-runs as often as the scenario says (whole processes: never), twice by default, never in --quick', async () => {
    expect(aaRetriesOf(undefined, false)).toBe(2);
    expect(aaRetriesOf({}, false)).toBe(2);
    expect(aaRetriesOf({ aaRetries: 0 }, false)).toBe(0);
    expect(aaRetriesOf({ aaRetries: 1 }, true)).toBe(0);
    const byName = new Map(scenarios.map((scenario) => [scenario.name, aaRetriesOf(scenario, false)]));
    for (const name of ['startup', 'real-eslint', 'vitest-threads', 'vitest-generated', 'worker-read'])
      expect(byName.get(name)).toBe(0);
    expect(byName.get('cwd-hot')).toBe(2);
    let runs = 0;
    const off = await runGatedJob(
      async () => {
        runs++;
        return measured(10, 14);
      },
      aaRetriesOf({ aaRetries: 0 }, false),
    );
    expect([runs, off.aaOff]).toEqual([1, true]);
  });

  it('reports a process that stays off, keeping its closest attempt', async () => {
    const attempts = [measured(10, 14), measured(10, 12), measured(10, 20)];
    let runs = 0;
    const record = await runGatedJob(async () => attempts[runs++] as JobRecord, 2);
    expect(runs).toBe(3);
    expect(record).toMatchObject({ attempts: 3, aaOff: true });
    expect(record.result?.rows.find((r) => r.role === 'control')?.stats.p50).toBe(12);
    const summary = summarize([record]);
    expect(summary.find((line) => line.role === 'control')?.aaOff).toBe(1);
    expect(summary.find((line) => line.role === 'baseline')?.aaOff).toBeUndefined();
  });

  it('with no retries (--quick) only marks', async () => {
    let runs = 0;
    const record = await runGatedJob(async () => {
      runs++;
      return measured(10, 14);
    }, 0);
    expect(runs).toBe(1);
    expect(record.aaOff).toBe(true);
  });
});

describe('speed-up intervals', () => {
  it('an interval that holds 1 is "no difference"', () => {
    expect(holdsOne(ratioInterval([0.9, 1.2, 1.05]))).toBe(true);
    expect(holdsOne(ratioInterval([3, 3.2, 3.1]))).toBe(false);
    expect(holdsOne(ratioInterval([3]))).toBe(false); // one round: no interval, no verdict
    expect(formatInterval(ratioInterval([0.9, 1.2, 1.05]))).toMatch(/no difference$/);
    expect(formatInterval(ratioInterval([3, 3.2, 3.1]))).not.toMatch(/no difference/);
  });
});

// Synthetic per-process speed-ups: the recorded run 2026-12-01e had mutex's cached cwd() at 2.2× in 6 of its 10
// processes and 2.8× in the 4 others (its code at 1.92 or 1.55 ns); their mean, 2.44×, was measured by no process.
const bimodal = [2.21, 2.8, 2.27, 2.8, 2.24, 2.74, 2.77, 2.28, 2.2, 2.24];

describe('modesOf: a figure that is bimodal from one process to the next', () => {
  it('finds the two modes, with the processes in each, and never their mean', () => {
    const modes = modesOf(bimodal);
    expect(modes).toBeDefined();
    const [low, high] = modes as NonNullable<typeof modes>;
    expect(low.n).toBe(6);
    expect(high.n).toBe(4);
    expect(low.estimate).toBeCloseTo(Math.exp(Math.log(2.2 * 2.21 * 2.24 * 2.24 * 2.27 * 2.28) / 6), 10);
    expect(high.estimate).toBeCloseTo(Math.exp(Math.log(2.74 * 2.77 * 2.8 * 2.8) / 4), 10);
    expect(low.high).toBeLessThan(high.low as number);
  });

  it('finds none in one cluster, however it scatters, nor for a stray process or a tail, nor in too few processes', () => {
    expect(modesOf([2.2, 2.25, 2.3, 2.35, 2.4, 2.45, 2.5, 2.55, 2.6, 2.65])).toBeUndefined(); // evenly spread
    expect(modesOf([2.2, 2.21, 2.22, 2.23, 2.24, 2.25, 2.26, 2.27, 2.28, 3.5])).toBeUndefined(); // one stray
    expect(modesOf([2.2, 2.21, 2.22, 2.8, 2.81])).toBeUndefined(); // 5 processes
    expect(modesOf([2.2, 2.21, 2.22, 2.3, 2.31, 2.32])).toBeUndefined(); // 4% apart: noise
    // A tail: two processes 10% above eight (mutex's resolve at load 13).
    expect(modesOf([3.88, 3.93, 3.93, 3.99, 4.03, 4.05, 4.07, 4.12, 4.56, 4.78])).toBeUndefined();
  });
});

describe('a bimodal row in the report', () => {
  const records = bimodal.map((speedup, round) =>
    job('sab-atomics', round, [
      row('noop', 'noop', 0.3),
      row('baseline', 'baseline', 4.3),
      row('provider', 'subject', 4.3 / speedup),
      row('control', 'control', 4.3),
    ]),
  );
  const provider = summarize(records).find((line) => line.key === 'provider');

  it('keeps both modes in the JSON beside the mean', () => {
    expect(provider?.modes?.map((mode) => mode.n)).toEqual([6, 4]);
    expect(provider?.speedup?.n).toBe(10);
  });

  it('shows both modes in the text and HTML tables and in the chart, not the mean', () => {
    const cell = speedupCell(provider as NonNullable<typeof provider>);
    expect(cell).toMatch(/^bimodal: 2\.24× \[[\d.]+–[\d.]+\] in 6 processes, 2\.78× \[[\d.]+–[\d.]+\] in 4$/);
    expect(cell).not.toContain(formatInterval(provider?.speedup).split(' ')[0] as string);
    const svg = chart(summarize(records).filter((line) => line.key === 'provider' || line.role === 'baseline'));
    expect(svg).toContain('bimodal: 2.24× (6), 2.78× (4)');
    expect(svg.match(/class="bar faster"/g)).toHaveLength(2);
  });
});
