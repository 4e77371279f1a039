import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import process from 'node:process';
import type { ScenarioComparison, ScenarioGoal } from '@cwdkit/benchmarks';
import type { BenchOptions } from './args.js';
import type { JobRecord, Skip } from './run.js';
import { holdsOne, type Interval, ratioInterval } from './stats.js';
import type { StrategyInfo } from './strategies.js';
import { type RowSummary, rowName } from './summary.js';

export interface Environment {
  readonly date: string;
  readonly cpu: string;
  readonly cores: number;
  readonly platform: string;
  readonly release: string;
  readonly arch: string;
  readonly memoryBytes: number;
  readonly runtimes: Readonly<Record<string, string>>;
  readonly commit?: string;
  /**
   * The directory the measuring processes ran in (absent before #29): path.resolve's cost grows with its length, the
   * join's hardly, so resolve's speed-up does too (the simple harness read 4.0× in the repository's root, 5.7× in
   * apps/bench, where `npm run bench` runs).
   */
  readonly cwd?: string;
  /**
   * What a first touch of a fresh page cost, µs, when the run started and when it ended (absent before #29): this VM
   * has a slow state (17.6 µs a fault against well under 1) in which whole processes cost ~5× and in-process ratios
   * move by up to 30% (benchmarks/results/2026-12-03-slow-vm). Runs are comparable when these are.
   */
  readonly pageFaultUs?: { readonly start: number; readonly end?: number };
}

/** Above this, a fresh page's first touch says the machine is in its slow state (a fast one: well under 1 µs). */
export const SLOW_PAGE_FAULT_US = 5;

/**
 * µs a first touch of a fresh page costs: writing one byte per 4 KiB page of a zeroed ArrayBuffer faults each page in,
 * 16,384 of them. 64 MiB, above glibc's largest mmap threshold (32 MiB): a buffer that size is always fresh memory from
 * the kernel, where a 16 MiB one, once freed, came back already touched (a review read 0.01 µs on a later call).
 */
export function pageFaultMicros(bytes = 64 * 2 ** 20): number {
  const page = 4096;
  const view = new Uint8Array(new ArrayBuffer(bytes));
  const start = process.hrtime.bigint();
  for (let at = 0; at < bytes; at += page) view[at] = 1;
  return Number(process.hrtime.bigint() - start) / 1e3 / (bytes / page);
}

/** Everything a run produced: what --json writes, and what the table and the HTML report are drawn from. */
export interface Report {
  readonly schema: 2;
  /** `mitata`: the version that timed the rows, in runs recorded before the engine timed them itself (#29). */
  readonly harness: { readonly name: string; readonly version: string; readonly mitata?: string };
  readonly environment: Environment;
  readonly options: Omit<BenchOptions, 'json' | 'html' | 'list' | 'help' | 'version'>;
  readonly strategies: readonly StrategyInfo[];
  readonly scenarios: readonly ScenarioMeta[];
  readonly skipped: readonly Skip[];
  /** Every process of every round, as measured. */
  readonly jobs: readonly JobRecord[];
  readonly summary: readonly RowSummary[];
  /** The whole-program rows (startup, real-*) against their baselines and targets: what the READMEs' tables show. */
  readonly programs?: readonly ProgramVerdict[];
  /** The scenarios' ratio goals (thread-cwd-worker, thread-cwd-fs), met or not. */
  readonly goals?: readonly GoalVerdict[];
  /** Jobs that failed and checks that did not hold: any makes the exit code 1. */
  readonly failures: readonly string[];
}

/** What the report keeps of a scenario. */
export interface ScenarioMeta {
  readonly name: string;
  readonly description: string;
  readonly claim: string;
  readonly target?: { readonly extraMs: number; readonly extraMiB: number };
  readonly goal?: ScenarioGoal;
  readonly compare?: readonly ScenarioComparison[];
}

const require = createRequire(import.meta.url);

function version(manifest: string): string {
  return (JSON.parse(fs.readFileSync(require.resolve(manifest), 'utf8')) as { version: string }).version;
}

export function harness(): Report['harness'] {
  return {
    name: '@cwdkit/bench',
    version: version('@cwdkit/bench/package.json'),
  };
}

export function environment(runtimes: Record<string, string>): Environment {
  const cpus = os.cpus();
  let commit: string | undefined;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {}
  return {
    date: new Date().toISOString(),
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism?.() ?? cpus.length,
    platform: os.platform(),
    release: os.release(),
    arch: os.arch(),
    memoryBytes: os.totalmem(),
    runtimes,
    ...(commit ? { commit } : {}),
    cwd: process.cwd(),
    pageFaultUs: { start: pageFaultMicros() },
  };
}

/** Failed jobs and failed checks, one line each. */
export function failures(jobs: readonly JobRecord[]): string[] {
  const lines: string[] = [];
  for (const job of jobs) {
    const where = `${job.runtime} ${job.scenario} ${job.strategy} round ${job.round + 1}`;
    if (job.error) lines.push(`${where}: ${job.error}`);
    for (const check of job.result?.checks ?? []) {
      if (!check.ok) lines.push(`${where}: check "${check.name}" failed${check.detail ? `: ${check.detail}` : ''}`);
    }
  }
  return lines;
}

const ROLE_ORDER = { noop: 0, baseline: 1, reference: 2, subject: 3, comparison: 4, control: 5 } as const;

/** The rows of one scenario on one runtime in the report's order: no-op, baseline, reference, strategies, comparisons, control. */
export function scenarioRows(summary: readonly RowSummary[], runtime: string, scenario: string): RowSummary[] {
  return summary
    .filter((row) => row.runtime === runtime && row.scenario === scenario)
    .map((row, index) => ({ row, index }))
    .sort((a, b) => ROLE_ORDER[a.row.role] - ROLE_ORDER[b.row.role] || a.index - b.index)
    .map(({ row }) => row);
}

/** 3 significant digits, no exponent. */
export function formatNumber(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  if (value >= 1000) return Math.round(value).toLocaleString('en-US');
  return value >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

/** A ratio: 3 significant digits, in exponent form when far from 1 (a confidence interval of two noisy rounds). */
export function formatRatio(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return value >= 1e4 || value < 1e-3 ? value.toExponential(1) : value.toPrecision(3);
}

/** A speed-up with its 95% interval, "no difference" when the interval holds 1. */
export function formatInterval(interval: RowSummary['speedup'], clipped = false): string {
  if (!interval) return '';
  const range = interval.low === undefined ? '' : ` [${formatRatio(interval.low)}–${formatRatio(interval.high)}]`;
  const verdict = holdsOne(interval) ? ' no difference' : '';
  return `${formatRatio(interval.estimate)}×${range}${clipped && range ? '~' : ''}${verdict}`;
}

/** A ratio of times the other way round, row ÷ baseline (below 1 is faster): how a flag's cost reads. */
export function inverse(interval: Interval | undefined): Interval | undefined {
  if (!interval) return undefined;
  const { estimate, low, high, n } = interval;
  return low === undefined || high === undefined
    ? { estimate: 1 / estimate, n }
    : { estimate: 1 / estimate, low: 1 / high, high: 1 / low, n };
}

/** Milliseconds from nanoseconds, signed when `signed`: "+1.23". */
export function formatMs(ns: number | undefined, signed = false): string {
  if (ns === undefined || !Number.isFinite(ns)) return '–';
  const ms = ns / 1e6;
  const text = Math.abs(ms) >= 100 ? ms.toFixed(0) : Math.abs(ms) >= 10 ? ms.toFixed(1) : ms.toFixed(2);
  return signed && ms >= 0 ? `+${text}` : text;
}

/** MiB from bytes, signed when `signed`. */
export function formatMiB(bytes: number | undefined, signed = false): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return '–';
  const text = (bytes / 2 ** 20).toFixed(1);
  return signed && bytes >= 0 ? `+${text}` : text;
}

/** The time column of a row that timed whole processes: row ÷ baseline, the baseline 1. */
export function timeRatioCell(row: RowSummary): string {
  return row.role === 'baseline' ? '1 (baseline)' : formatInterval(inverse(row.speedup));
}

/** The speed-up column of a row: the baseline is 1 by definition; a bimodal row shows its two modes, never their mean. */
export function speedupCell(row: RowSummary): string {
  if (row.role === 'baseline') return '1 (baseline)';
  return row.modes ? formatModes(row.modes) : formatInterval(row.speedup);
}

/** "bimodal: 2.24× [2.20–2.28] in 6 processes, 2.78× [2.73–2.82] in 4". */
export function formatModes([low, high]: readonly [Interval, Interval]): string {
  return `bimodal: ${formatInterval(low)} in ${low.n} processes, ${formatInterval(high)} in ${high.n}`;
}

/** Per runtime: the fastest worker-coherent strategy on the main thread and in workers, and its chdir + cwd. */
export interface RuntimeVerdict {
  readonly runtime: string;
  readonly mainThread?: { strategy: string; speedup: Interval; chdir?: Interval };
  readonly workers?: { strategy: string; speedup: Interval; chdir?: Interval };
}

export function verdicts(report: Pick<Report, 'summary' | 'jobs' | 'options'>): RuntimeVerdict[] {
  return report.options.runtimes.map((runtime) => {
    const coherent = new Set<string>(
      report.jobs
        .filter((job) => job.runtime === runtime && job.result?.capabilities.workerCoherent)
        .map((job) => job.strategy),
    );
    const best = (scenarios: readonly string[]) => {
      const rows = report.summary.filter(
        (row) =>
          row.runtime === runtime &&
          scenarios.includes(row.scenario) &&
          row.key === 'provider' &&
          row.strategy !== undefined &&
          coherent.has(row.strategy) &&
          row.speedup,
      );
      const top = rows.sort((a, b) => (b.speedup?.estimate ?? 0) - (a.speedup?.estimate ?? 0))[0];
      if (!top?.strategy || !top.speedup) return undefined;
      const chdir = report.summary.find(
        (row) =>
          row.runtime === runtime &&
          row.scenario === 'chdir-cwd' &&
          row.strategy === top.strategy &&
          row.key === 'provider',
      )?.speedup;
      return { strategy: top.strategy, speedup: top.speedup, ...(chdir ? { chdir } : {}) };
    };
    const mainThread = best(['cwd-hot']);
    const workers = best(['worker-hot', 'worker-read']);
    return { runtime, ...(mainThread ? { mainThread } : {}), ...(workers ? { workers } : {}) };
  });
}

/** A row that timed whole programs, against its baseline: the flag's cost, and what it means. */
export interface ProgramVerdict {
  readonly runtime: string;
  readonly scenario: string;
  readonly strategy?: string;
  /** The row's key and label in its scenario ('provider', 'no-config' …). */
  readonly key: string;
  readonly label: string;
  /** Time with the flag ÷ without (below 1: faster), with its 95% interval over rounds. */
  readonly ratio?: Interval;
  readonly extraNs?: number;
  readonly extraRssBytes?: number;
  /** Against the scenario's target ("met", "not met"), else "slower", "faster" or "no difference". */
  readonly verdict: string;
}

/** A whole-program row by its strategy and what it ran ("native: cwdkit/register, no config file …"). */
export const programRowName = (row: Pick<ProgramVerdict, 'strategy' | 'label'>) =>
  row.strategy ? `${row.strategy}: ${row.label}` : row.label;

/** Every subject row of the scenarios that time whole programs (startup, real-*), runtime by runtime. */
export function programVerdicts(report: Pick<Report, 'summary' | 'options' | 'scenarios'>): ProgramVerdict[] {
  const found: ProgramVerdict[] = [];
  for (const runtime of report.options.runtimes) {
    for (const scenario of report.scenarios) {
      for (const row of scenarioRows(report.summary, runtime, scenario.name)) {
        if (row.role !== 'subject' || !row.processes) continue;
        const ratio = inverse(row.speedup);
        const { extraNs, extraRssBytes } = row.processes;
        let verdict: string;
        if (scenario.target) {
          const time = extraNs !== undefined && extraNs <= scenario.target.extraMs * 1e6;
          const memory = extraRssBytes === undefined ? undefined : extraRssBytes <= scenario.target.extraMiB * 2 ** 20;
          verdict =
            time && memory !== false ? (memory === undefined ? 'met (time; memory not measured)' : 'met') : 'not met';
        } else {
          verdict =
            ratio?.low === undefined || ratio.high === undefined
              ? 'one round'
              : holdsOne(ratio)
                ? 'no difference'
                : ratio.low > 1
                  ? 'slower'
                  : 'faster';
        }
        found.push({
          runtime,
          scenario: scenario.name,
          ...(row.strategy ? { strategy: row.strategy } : {}),
          key: row.key,
          label: row.label,
          ...(ratio ? { ratio } : {}),
          ...(extraNs !== undefined ? { extraNs } : {}),
          ...(extraRssBytes !== undefined ? { extraRssBytes } : {}),
          verdict,
        });
      }
    }
  }
  return found;
}

/** What the whole-program rows say, in words: the flag's cost on each runtime, met or not. */
export function renderProgramVerdicts(
  report: Pick<Report, 'summary' | 'options' | 'scenarios' | 'environment'>,
): string {
  const found = programVerdicts(report);
  if (found.length === 0) return '';
  const targets = report.scenarios
    .filter((scenario) => scenario.target)
    .map((scenario) => `${scenario.name} ≤ ${scenario.target?.extraMs} ms and ≤ ${scenario.target?.extraMiB} MiB`);
  const lines = [
    `Whole programs: time with cwdkit ÷ without (95% CI), what it adds (median of per-process differences)${targets.length ? `; target: ${targets.join(', ')}` : ''}`,
  ];
  const cells = found.map((item) => [
    `  ${item.runtime} ${report.environment.runtimes[item.runtime] ?? ''}`,
    item.scenario,
    programRowName(item),
    formatInterval(item.ratio),
    `${formatMs(item.extraNs, true)} ms`,
    item.extraRssBytes === undefined ? '' : `${formatMiB(item.extraRssBytes, true)} MiB`,
    item.verdict,
  ]);
  return `${lines.join('\n')}\n${pad(cells, 3)}\n`;
}

/** A row held to its scenario's goal: its time ÷ the `against` row's, per process, over rounds. */
export interface GoalVerdict {
  readonly runtime: string;
  readonly scenario: string;
  readonly strategy: string;
  readonly key: string;
  readonly label: string;
  readonly against: string;
  /** Absent for a comparison (the scenario's `compare`): a ratio shown beside the goal, with no goal of its own. */
  readonly atMost?: number;
  /** The geometric mean of the per-process ratios (row p50 ÷ against p50) and its 95% interval. */
  readonly ratio?: Interval;
  /** "met" when the estimate is within the goal, else "not met"; "not measured" without a ratio; "no goal". */
  readonly verdict: 'met' | 'not met' | 'not measured' | 'no goal';
}

/** Every row a scenario's goal and comparisons name, per runtime and strategy, from the processes themselves. */
export function goalVerdicts(report: Pick<Report, 'jobs' | 'options' | 'scenarios'>): GoalVerdict[] {
  const found: GoalVerdict[] = [];
  for (const runtime of report.options.runtimes) {
    for (const scenario of report.scenarios) {
      const held: (ScenarioComparison & { atMost?: number })[] = [
        ...(scenario.goal ? [scenario.goal] : []),
        ...(scenario.compare ?? []),
      ];
      if (held.length === 0) continue;
      const jobs = report.jobs.filter((job) => job.runtime === runtime && job.scenario === scenario.name);
      for (const strategy of [...new Set(jobs.map((job) => job.strategy))]) {
        const results = jobs.filter((job) => job.strategy === strategy && job.result?.rows.length);
        if (results.length === 0) continue; // not applicable there, or failed: said elsewhere
        for (const [goal, key] of held.flatMap((goal) => goal.rows.map((key) => [goal, key] as const))) {
          const ratios: number[] = [];
          let label = key;
          for (const job of results) {
            const rows = job.result?.rows ?? [];
            const row = rows.find((candidate) => candidate.key === key);
            const against = rows.find((candidate) => candidate.key === goal.against);
            if (row) label = row.label;
            if (row && against) ratios.push(row.stats.p50 / against.stats.p50);
          }
          const ratio = ratioInterval(ratios);
          found.push({
            runtime,
            scenario: scenario.name,
            strategy,
            key,
            label,
            against: goal.against,
            ...(goal.atMost !== undefined ? { atMost: goal.atMost } : {}),
            ...(ratio ? { ratio } : {}),
            verdict: !ratio
              ? 'not measured'
              : goal.atMost === undefined
                ? 'no goal'
                : ratio.estimate <= goal.atMost
                  ? 'met'
                  : 'not met',
          });
        }
      }
    }
  }
  return found;
}

/** The goals in words: each row's time ÷ what it is held to, the goal, met or not. */
export function renderGoals(report: Pick<Report, 'jobs' | 'options' | 'scenarios' | 'environment'>): string {
  const found = goalVerdicts(report);
  if (found.length === 0) return '';
  const cells = found.map((item) => [
    `  ${item.runtime} ${report.environment.runtimes[item.runtime] ?? ''}`,
    item.scenario,
    `${item.strategy}: ${item.label}`,
    `÷ ${item.against}`,
    // The interval as it is: "no difference" (from 1) says nothing about a goal.
    item.ratio ? formatInterval(item.ratio).replace(' no difference', '') : '–',
    item.atMost === undefined ? '' : `goal ≤ ${item.atMost}×`,
    item.verdict,
  ]);
  return `Goals: a row's time ÷ the row it is held to, per process (geometric mean over rounds, 95% CI)\n${pad(cells, 4)}\n`;
}

/** The processes that measured nothing on their runtime, and why (thread-cwd in a Bun or Deno worker). */
export function notApplicable(jobs: readonly JobRecord[], runtime: string, scenario: string): string[] {
  const reasons = jobs
    .filter((job) => job.runtime === runtime && job.scenario === scenario && job.result?.notApplicable)
    .map((job) => `${job.strategy}: ${job.result?.notApplicable}`);
  return [...new Set(reasons)];
}

/** The verdicts in words, one line per runtime. */
export function renderVerdicts(report: Pick<Report, 'summary' | 'jobs' | 'options' | 'environment'>): string {
  const lines = [
    'Summary: the fastest worker-coherent strategy (speed-up over the runtime, 95% CI; chdir + cwd as a speed-up too)',
  ];
  for (const verdict of verdicts(report)) {
    const say = (what: RuntimeVerdict['mainThread']) =>
      what
        ? `${what.strategy} ${formatInterval(what.speedup)}${what.chdir ? `, chdir ${formatInterval(what.chdir)}` : ''}`
        : 'not measured';
    lines.push(
      `  ${`${verdict.runtime} ${report.environment.runtimes[verdict.runtime] ?? ''}`.padEnd(16)} main thread: ${say(verdict.mainThread)}; workers: ${say(verdict.workers)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export function formatStale(stale: RowSummary['stale']): string {
  if (!stale) return '';
  const share = stale.reads === 0 ? 0 : (100 * stale.stale) / stale.reads;
  return `${stale.stale.toLocaleString('en-US')}/${stale.reads.toLocaleString('en-US')} (${share < 0.1 && share > 0 ? '<0.1' : share.toFixed(1)}%)`;
}

/** Columns padded to one width: the first `left` aligned left (words), the others right (figures). */
function pad(cells: string[][], left = 1): string {
  const widths = cells[0]?.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length))) ?? [];
  return cells
    .map((row) =>
      row
        .map((cell, column) => (column < left ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One scenario's table on one runtime, as printed when the scenario finishes. */
export function renderScenario(
  report: Pick<Report, 'summary' | 'environment'> & { readonly jobs?: readonly JobRecord[] },
  runtime: string,
  scenario: ScenarioMeta,
): string | undefined {
  const rows = scenarioRows(report.summary, runtime, scenario.name);
  if (rows.length === 0) {
    const reasons = notApplicable(report.jobs ?? [], runtime, scenario.name);
    if (reasons.length === 0) return undefined;
    return `${scenario.name} on ${runtime} ${report.environment.runtimes[runtime] ?? ''}: not applicable, not measured (${reasons.join('; ')})`;
  }
  const title = `${scenario.name} on ${runtime} ${report.environment.runtimes[runtime] ?? ''} — ${scenario.description}`;
  if (rows.some((row) => row.processes)) {
    // Whole processes: milliseconds, the time ratio the way a flag's cost reads, and what the row adds.
    const hasRss = rows.some((row) => row.processes?.peakRssBytes !== undefined);
    const header = ['', 'p50 ms', 'min ms', 'p99 ms', '÷ baseline [95% CI]', '+ms'];
    if (hasRss) header.push('peak RSS MiB', '+MiB');
    const notes = new Set<string>();
    const lines = rows.map((row) => {
      const cells = [
        rowName(row) + (row.aaOff ? ' !' : ''),
        formatMs(row.p50),
        formatMs(row.min),
        formatMs(row.p99),
        timeRatioCell(row),
        row.role === 'baseline' ? '' : formatMs(row.processes?.extraNs, true),
      ];
      if (hasRss) {
        cells.push(
          formatMiB(row.processes?.peakRssBytes),
          row.role === 'baseline' ? '' : formatMiB(row.processes?.extraRssBytes, true),
        );
      }
      if (row.aaOff) notes.add(`! ${AA_NOTE}`);
      return cells;
    });
    return [title, `claim: ${scenario.claim}`, '', pad([header, ...lines]), ...notes].join('\n');
  }
  const hasReference = rows.some((row) => row.vsReference);
  const hasStale = rows.some((row) => row.stale);
  const header = ['', 'p50 ns', 'min ns', 'p99 ns', 'speed-up [95% CI]'];
  if (hasReference) header.push('× reference');
  if (hasStale) header.push('stale reads');
  const notes = new Set<string>();
  const lines = rows.map((row) => {
    const cells = [
      rowName(row) + (row.flag ? ' *' : '') + (row.aaOff ? ' !' : ''),
      formatNumber(row.p50),
      formatNumber(row.min),
      formatNumber(row.p99),
      speedupCell(row),
    ];
    if (hasReference) cells.push(formatInterval(row.vsReference));
    if (hasStale) cells.push(formatStale(row.stale));
    if (row.flag) notes.add(`* ${row.flag}`);
    if (row.aaOff) notes.add(`! ${AA_NOTE}`);
    return cells;
  });
  return [title, `claim: ${scenario.claim}`, '', pad([header, ...lines]), ...notes].join('\n');
}

/** What the "!" mark means. */
export const AA_NOTE =
  'the A/A control stayed more than 10% off its baseline in some processes (a full run first measures such a process again, twice at most, or as often as its scenario says: never for whole processes)';

/** The readable report: the summary, then one block per scenario and runtime (unless they were printed already). */
export function renderTable(report: Report, withTables = true): string {
  const blocks: string[] = [renderVerdicts(report).trimEnd()];
  const programs = renderProgramVerdicts(report).trimEnd();
  if (programs) blocks.push(programs);
  const goals = renderGoals(report).trimEnd();
  if (goals) blocks.push(goals);
  for (const runtime of withTables ? [] : report.options.runtimes) {
    for (const scenario of report.scenarios) {
      for (const reason of notApplicable(report.jobs, runtime, scenario.name)) {
        blocks.push(`${scenario.name} on ${runtime}: not applicable, not measured (${reason})`);
      }
    }
  }
  for (const runtime of withTables ? report.options.runtimes : []) {
    for (const scenario of report.scenarios) {
      const block = renderScenario(report, runtime, scenario);
      if (block) blocks.push(block);
    }
  }
  for (const skip of report.skipped) blocks.push(`${skip.scenario}: skipped, ${skip.reason}`);
  const missing = report.strategies.filter((strategy) => !strategy.installed);
  if (missing.length > 0) {
    blocks.push(`not measured: ${missing.map((strategy) => `${strategy.name} (${strategy.reason})`).join('; ')}`);
  }
  if (report.failures.length > 0) blocks.push(`FAILED:\n${report.failures.map((line) => `  ${line}`).join('\n')}`);
  return `${blocks.join('\n\n')}\n`;
}
