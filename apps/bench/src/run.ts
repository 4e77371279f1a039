import { spawn } from 'node:child_process';
import process from 'node:process';
import type { Scenario } from '@cwdkit/benchmarks';
import type { BenchOptions, RuntimeName } from './args.js';
import { type ChildResult, type ChildSpec, RESULT_MARKER } from './child.js';
import type { RuntimeCommand } from './runtimes.js';

/** One process: a (runtime, strategy, scenario, round). */
export interface Job {
  readonly runtime: RuntimeName;
  readonly scenario: string;
  readonly strategy: string;
  readonly round: number;
  /** The rounds this job's scenario runs: --rounds, or fewer when the scenario caps them (Scenario.rounds). */
  readonly rounds: number;
  /** Odd rounds: strategies and rows in the opposite order. */
  readonly reverse: boolean;
}

export interface JobRecord extends Job {
  readonly ms: number;
  /** Processes run for this job: more than 1 when the A/A control was off and the job was measured again. */
  readonly attempts?: number;
  /** The A/A control stayed more than 10% off its baseline in every attempt (the closest attempt is kept). */
  readonly aaOff?: boolean;
  readonly result?: ChildResult;
  readonly error?: string;
}

export interface Skip {
  readonly scenario: string;
  readonly strategy?: string;
  readonly reason: string;
}

/**
 * Every process of the run, scenario by scenario (so that each scenario's table can be printed as it finishes), and in
 * each scenario round by round, so that a slow drift of the machine touches every strategy alike; the strategies'
 * order flips between rounds. Ratios are taken inside one process, so a drift between scenarios does not bias them.
 */
export function planJobs(
  options: Pick<BenchOptions, 'rounds' | 'runtimes'>,
  scenarios: readonly Scenario[],
  strategies: readonly string[],
  /** Why a strategy that is not in `strategies` is missing (not installed, and what to do). */
  unavailable: Partial<Record<string, string>> = {},
): { jobs: Job[]; skipped: Skip[] } {
  const skipped: Skip[] = [];
  const perScenario = scenarios.map((scenario) => {
    const only = scenario.strategies;
    const applicable = only ? strategies.filter((name) => only.includes(name)) : [...strategies];
    if (only && applicable.length === 0) {
      const why = only.map((name) => `@cwdkit/${name} ${unavailable[name] ?? 'was not selected (--strategy)'}`);
      skipped.push({ scenario: scenario.name, reason: `needs ${only.join(' or ')}: ${why.join('; ')}` });
    }
    return {
      scenario: scenario.name,
      strategies: applicable,
      rounds: Math.min(options.rounds, scenario.rounds ?? options.rounds),
    };
  });
  const jobs: Job[] = [];
  for (const runtime of options.runtimes) {
    for (const { scenario, strategies: names, rounds } of perScenario) {
      for (let round = 0; round < rounds; round++) {
        const reverse = round % 2 === 1;
        for (const strategy of reverse ? [...names].reverse() : names)
          jobs.push({ runtime, scenario, strategy, round, rounds, reverse });
      }
    }
  }
  return { jobs, skipped };
}

/** The result line of a child's output, or why there is none. */
export function parseChildOutput(stdout: string): ChildResult {
  const line = stdout.split('\n').find((candidate) => candidate.startsWith(RESULT_MARKER));
  if (!line) throw new Error('the child printed no result');
  return JSON.parse(line.slice(RESULT_MARKER.length)) as ChildResult;
}

/** The A/A gate: a process whose control differs from its baseline by more than this is measured again. */
export const AA_TOLERANCE = 0.1;

/** How far the A/A control of a result is from its baseline, as |log(control ÷ baseline)|; 0 without a control. */
export function aaDeviation(result: ChildResult): number {
  const p50 = (role: string) => result.rows.find((row) => row.role === role)?.stats.p50;
  const baseline = p50('baseline');
  const control = p50('control');
  if (!baseline || !control) return 0;
  return Math.abs(Math.log(control / baseline));
}

/** How often a job of `scenario` is measured again while its A/A is off: twice, or as the scenario says; never in --quick. */
export function aaRetriesOf(scenario: Pick<Scenario, 'aaRetries'> | undefined, quick: boolean): number {
  return quick ? 0 : (scenario?.aaRetries ?? 2);
}

/** Whether an A/A deviation passes the gate (within ±10%, in either direction). */
export const aaPasses = (deviation: number) => deviation <= Math.log(1 + AA_TOLERANCE);

/**
 * Runs a job, and again (up to `retries` times) while its A/A control is more than 10% off: a process that cannot
 * measure its baseline twice alike cannot be trusted with a ratio. Keeps the attempt closest to A/A = 1 and marks it
 * when none passed.
 */
export async function runGatedJob(run: () => Promise<JobRecord>, retries: number): Promise<JobRecord> {
  let best: { record: JobRecord; deviation: number } | undefined;
  let attempts = 0;
  let ms = 0;
  for (let attempt = 0; attempt <= retries; attempt++) {
    const record = await run();
    attempts++;
    ms += record.ms;
    if (!record.result) return { ...record, ms, attempts };
    const deviation = aaDeviation(record.result);
    if (!best || deviation < best.deviation) best = { record, deviation };
    if (aaPasses(deviation)) break;
  }
  const kept = best as { record: JobRecord; deviation: number };
  return { ...kept.record, ms, attempts, ...(aaPasses(kept.deviation) ? {} : { aaOff: true }) };
}

/** Runs one job in its own process of its runtime; a failure is recorded, not thrown. */
export function runJob(
  job: Job,
  /** The URL of the strategy's module (strategyModule()). */
  module: string,
  runtime: RuntimeCommand,
  script: string,
  options: Pick<BenchOptions, 'minCpuTimeMs' | 'workers'>,
  timeoutMs: number,
): Promise<JobRecord> {
  const spec: ChildSpec = {
    scenario: job.scenario,
    strategy: job.strategy,
    module,
    reverse: job.reverse,
    minCpuTimeMs: options.minCpuTimeMs,
    workers: options.workers,
  };
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(runtime.command, [...runtime.args, script, '--child', JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const finish = (error?: string, result?: ChildResult) => {
      clearTimeout(timer);
      resolve({ ...job, ms: Math.round(performance.now() - started), ...(result ? { result } : { error }) });
    };
    child.on('error', (error) => finish(`could not start ${runtime.command}: ${error.message}`));
    child.on('close', (code, signal) => {
      try {
        if (code === 0) return finish(undefined, parseChildOutput(stdout));
      } catch {}
      const why = signal
        ? `killed by ${signal}${signal === 'SIGKILL' ? ` after ${timeoutMs} ms` : ''}`
        : `exit code ${code}`;
      const lines = stderr.trim().split('\n');
      const shown = lines.length > 8 ? [...lines.slice(0, 4), '…', ...lines.slice(-3)] : lines;
      finish(`${why}: ${shown.join('\n') || '(no output)'}`);
    });
  });
}

/** "1 h 02 min", "3 min 05 s", "42 s". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/**
 * A progress line on stderr with what runs now and an ETA (the mean time of a finished process × the processes left):
 * redrawn in place on a terminal, one line per finished scenario elsewhere.
 */
export function progress(total: number, started = performance.now()): (done: number, job: Job) => void {
  const tty = process.stderr.isTTY === true;
  const width = 24;
  return (done, job) => {
    const elapsed = performance.now() - started;
    const eta = done === total ? 'done' : `ETA ${formatDuration((elapsed / done) * (total - done))}`;
    const filled = Math.round((done / total) * width);
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}, ${formatDuration(elapsed)}, ${eta}`;
    const what = `${job.runtime} ${job.scenario} round ${job.round + 1}/${job.rounds} ${job.strategy}`;
    if (tty) process.stderr.write(`\r\x1b[2K${bar} ${what}${done === total ? '\n' : ''}`);
    else process.stderr.write(`${bar} ${what}\n`);
  };
}
