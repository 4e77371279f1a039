import type { CwdCapabilities, StrategyDefinition } from '@cwdkit/core';

/**
 * What each row of a scenario is for. Every process measures a no-op (the harness floor), the baseline (what a program
 * calls today), the strategy's own rows, and an A/A control (the baseline measured again under another name: its ratio
 * to the baseline should be 1, and its confidence interval shows how much noise the method lets through). A
 * comparison is another measurement of the same process that is no strategy's own (thread-cwd-worker: process.cwd() in
 * a worker with another strategy installed, or none), for the ratios a scenario names in `compare`.
 */
export type RowRole = 'noop' | 'baseline' | 'reference' | 'subject' | 'control' | 'comparison';

/** One row's statistics over its samples, in nanoseconds per operation. */
export interface Measurement {
  readonly p50: number;
  readonly min: number;
  readonly p99: number;
  readonly avg: number;
  readonly samples: number;
  /** Operations timed together in one sample (fast functions are batched): the timer's quantum is divided by it. */
  readonly opsPerSample: number;
}

/** Reads counted with the publish-after-chdir protocol (worker-read). */
export interface StaleCount {
  readonly reads: number;
  readonly stale: number;
}

export interface RowResult {
  /** Stable within a scenario: 'noop', 'baseline', 'control', 'provider', … */
  readonly key: string;
  /** What the report shows, e.g. "process.cwd()". */
  readonly label: string;
  readonly role: RowRole;
  readonly stats: Measurement;
  readonly stale?: StaleCount;
  /** The row timed whole processes, one per run (startup, real-*): how many, and their median peak RSS (GNU time). */
  readonly processes?: ProcessRuns;
}

export interface ProcessRuns {
  readonly runs: number;
  readonly peakRssBytes?: number;
}

/** A correctness check made before measuring: a fast wrong answer is not a result. */
export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail?: string;
}

export interface ScenarioResult {
  readonly rows: RowResult[];
  readonly checks: Check[];
  /** As the thread that measured reported them, when the main thread did not load the strategy (cold-worker). */
  readonly capabilities?: CwdCapabilities;
  /** Why nothing was measured on this runtime (thread-cwd's install() refuses in Bun and Deno workers): the report says so. */
  readonly notApplicable?: string;
}

export interface LoadedStrategy {
  /** The name its package declares (`"cwdkit": {"strategy": "<name>"}`). */
  readonly name: string;
  /** The URL of the module it was loaded from: worker threads import the same one. */
  readonly url: string;
  readonly definition: StrategyDefinition<unknown>;
  /** The package's whole namespace: napi-call reads `napi` from @cwdkit/native. */
  readonly module: Record<string, unknown>;
}

export interface ScenarioContext {
  readonly strategy: LoadedStrategy;
  /** Odd rounds measure the rows in the opposite order, so that a drift in one direction cancels out. */
  readonly reverse: boolean;
  /** Time in samples for each row, in milliseconds (the engine's budget; mitata's min_cpu_time when it timed the rows). */
  readonly minCpuTimeMs: number;
  /** Reader threads for worker-read. */
  readonly workers: number;
}

export interface ScenarioGoal {
  readonly rows: readonly string[];
  readonly against: string;
  readonly atMost: number;
}

/** Ratios the report shows beside the goal, with no goal of their own: these rows' time ÷ the `against` row's. */
export type ScenarioComparison = Omit<ScenarioGoal, 'atMost'>;

export interface Scenario {
  readonly name: string;
  readonly description: string;
  /** The published claim this scenario checks, named in words ("Node's cwd cache PR: 11.7×"). */
  readonly claim: string;
  /**
   * The main thread of the measuring process must never load the strategy (cold-worker): the child does not import it,
   * and `context.strategy` holds only its name.
   */
  readonly coldMainThread?: boolean;
  /** Takes minutes: --quick leaves it out unless it is named. */
  readonly slow?: boolean;
  /**
   * What a subject row may add over the baseline, as the median over processes of (row − baseline): the summary
   * reports it met or not (startup: issue #21's ≤ 2 ms and ≤ 2 MiB over an empty preload).
   */
  readonly target?: { readonly extraMs: number; readonly extraMiB: number };
  /**
   * What these rows may cost as a multiple of the `against` row's time, per process (p50 ÷ p50), their geometric mean
   * over rounds: the report says met or not (thread-cwd-fs: a relative statSync ≤ 1.05× the absolute one).
   */
  readonly goal?: ScenarioGoal;
  /** More ratios of the same kind, reported without a goal (thread-cwd-worker: the fair baselines of process.cwd()). */
  readonly compare?: readonly ScenarioComparison[];
  /**
   * Measure a process again when its A/A control is more than 10% off, at most this many times (default 2). Whole
   * processes (startup, real-*) take 0: a retry costs seconds, and their interval over rounds already shows the noise.
   */
  readonly aaRetries?: number;
  /**
   * At most this many rounds, whatever --rounds asks: for a scenario whose intervals were already tight (±3% at 10
   * rounds in the 2026-12-01b recording) or that more rounds do not narrow, so that a recording fits its time.
   */
  readonly rounds?: number;
  /** Only these strategies apply (napi-call needs the addon); every installed one when absent. */
  readonly strategies?: readonly string[];
  run(context: ScenarioContext): Promise<ScenarioResult>;
}
