import { spawn } from 'node:child_process';
import process from 'node:process';
import type { Scenario } from '@cwdkit/benchmarks';
import type { StrategyName } from '@cwdkit/core';
import type { BenchOptions, RuntimeName } from './args.js';
import { type ChildResult, type ChildSpec, RESULT_MARKER } from './child.js';
import type { RuntimeCommand } from './runtimes.js';

/** One process: a (runtime, strategy, scenario, round). */
export interface Job {
  readonly runtime: RuntimeName;
  readonly scenario: string;
  readonly strategy: StrategyName;
  readonly round: number;
  /** Odd rounds: strategies and rows in the opposite order. */
  readonly reverse: boolean;
}

export interface JobRecord extends Job {
  readonly ms: number;
  readonly result?: ChildResult;
  readonly error?: string;
}

export interface Skip {
  readonly scenario: string;
  readonly strategy?: StrategyName;
  readonly reason: string;
}

/**
 * Every process of the run, round by round, so that a slow drift of the machine touches every strategy alike; the
 * strategies' order flips between rounds.
 */
export function planJobs(
  options: Pick<BenchOptions, 'rounds' | 'runtimes'>,
  scenarios: readonly Scenario[],
  strategies: readonly StrategyName[],
  /** Why a strategy that is not in `strategies` is missing (not installed, and what to do). */
  unavailable: Partial<Record<StrategyName, string>> = {},
): { jobs: Job[]; skipped: Skip[] } {
  const skipped: Skip[] = [];
  const perScenario = scenarios.map((scenario) => {
    const only = scenario.strategies;
    const applicable = only ? strategies.filter((name) => only.includes(name)) : [...strategies];
    if (only && applicable.length === 0) {
      const why = only.map((name) => `@cwdkit/${name} ${unavailable[name] ?? 'was not selected (--strategy)'}`);
      skipped.push({ scenario: scenario.name, reason: `needs ${only.join(' or ')}: ${why.join('; ')}` });
    }
    return { scenario: scenario.name, strategies: applicable };
  });
  const jobs: Job[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const reverse = round % 2 === 1;
    for (const runtime of options.runtimes) {
      for (const { scenario, strategies: names } of perScenario) {
        for (const strategy of reverse ? [...names].reverse() : names)
          jobs.push({ runtime, scenario, strategy, round, reverse });
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

/** Runs one job in its own process of its runtime; a failure is recorded, not thrown. */
export function runJob(
  job: Job,
  runtime: RuntimeCommand,
  script: string,
  options: Pick<BenchOptions, 'minCpuTimeMs' | 'workers'>,
  timeoutMs: number,
): Promise<JobRecord> {
  const spec: ChildSpec = {
    scenario: job.scenario,
    strategy: job.strategy,
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

/** A progress bar on stderr: redrawn in place on a terminal, one line per round elsewhere. */
export function progress(total: number, rounds: number): (done: number, job: Job) => void {
  const tty = process.stderr.isTTY === true;
  const width = 30;
  return (done, job) => {
    const filled = Math.round((done / total) * width);
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
    if (tty) {
      const what = `round ${job.round + 1}/${rounds} ${job.runtime} ${job.scenario} ${job.strategy}`;
      process.stderr.write(`\r\x1b[2K${bar} ${what}${done === total ? '\n' : ''}`);
    } else if (done === total || (done * rounds) % total === 0) {
      process.stderr.write(`${bar} round ${job.round + 1}/${rounds} done\n`);
    }
  };
}
