import { type CwdCapabilities, codedError, defineStrategy, readOsCwd, type StrategyDefinition } from '@cwdkit/core';
import { type Check, CheckSkipped, checks } from './checks/index.js';
import { CheckContext } from './context.js';

/** Imports a strategy module and checks that its default export is a StrategyDefinition. */
export async function loadStrategy(module: string): Promise<StrategyDefinition<unknown>> {
  const loaded = (await import(module)) as { default?: unknown };
  return defineStrategy(loaded.default as StrategyDefinition<unknown>);
}

/** The capabilities a provider created with `options` declares: the suite plans from these, never from its own options. */
export function capabilitiesOf(strategy: StrategyDefinition<unknown>, options: unknown): CwdCapabilities {
  const provider = strategy.create(options);
  try {
    return provider.capabilities;
  } finally {
    provider.close();
  }
}

/** Runs one check in a fresh context and puts everything back afterwards. Throws what the check throws. */
export async function runCheck(
  module: string,
  options: unknown,
  strategy: StrategyDefinition<unknown>,
  check: Check,
): Promise<void> {
  const home = readOsCwd();
  const context = new CheckContext(module, options, strategy);
  try {
    await check.run(context);
  } finally {
    await context.dispose(home);
  }
}

export interface CheckResult {
  title: string;
  status: 'passed' | 'failed' | 'skipped';
  /** Why it was skipped, or the failure. */
  detail?: string;
}

export interface ConformanceRun {
  module: string;
  options?: unknown;
  /** Run only the checks with these titles. */
  only?: readonly string[];
  onResult?(result: CheckResult): void;
}

/** The standalone runner: every check, in order, outside any test framework (used under Bun and Deno). */
export async function runConformance(run: ConformanceRun): Promise<CheckResult[]> {
  const strategy = await loadStrategy(run.module);
  const capabilities = capabilitiesOf(strategy, run.options);
  const unknown = (run.only ?? []).filter((title) => !checks.some((check) => check.title === title));
  if (unknown.length > 0) {
    throw codedError(new Error(`No such check: ${unknown.join(', ')}`), 'ERR_CWDKIT_UNKNOWN_CHECK');
  }
  const results: CheckResult[] = [];
  for (const check of checks) {
    if (run.only && !run.only.includes(check.title)) continue;
    let result: CheckResult;
    const reason = check.skip?.(capabilities);
    if (reason !== undefined) {
      result = { title: check.title, status: 'skipped', detail: reason };
    } else {
      try {
        await runCheck(run.module, run.options, strategy, check);
        result = { title: check.title, status: 'passed' };
      } catch (error) {
        result =
          error instanceof CheckSkipped
            ? { title: check.title, status: 'skipped', detail: error.message }
            : {
                title: check.title,
                status: 'failed',
                detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
              };
      }
    }
    results.push(result);
    run.onResult?.(result);
  }
  return results;
}

/** "N passed, N failed, N skipped": the closing line of a run. */
export function summarize(results: readonly CheckResult[]): string {
  const count = (status: CheckResult['status']) => results.filter((result) => result.status === status).length;
  return `${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`;
}
