import { fileURLToPath } from 'node:url';
import { osChdir, readOsCwd } from '@cwdkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckSkipped, checks } from './checks/index.js';
import { spawnRuntime } from './harness.js';
import { capabilitiesOf, loadStrategy, runCheck } from './runner.js';
import { findRuntime, OTHER_RUNTIMES, type OtherRuntime, runtimeLeftOut } from './runtimes.js';

/**
 * One whole run of the suite in a child runtime: about 10 s on a quiet machine, up to a minute on a loaded 2-core one
 * (the storm and the differential test dominate). The child is killed well before the test's own timeout.
 */
const RUN_BUDGET = 300_000;
/** A check's budget when it names none (vitest's own default, 5 s, is too short on a loaded machine). */
const DEFAULT_BUDGET = 60_000;

export interface DescribeOptions {
  /** Handed to the strategy's create(). */
  options?: unknown;
  /** Also run the whole suite under these runtimes (their npm packages must be installed). Default: all of them, or
   *  those that the environment variable CWDKIT_CONFORMANCE_RUNTIMES names (comma-separated) when it is set. */
  runtimes?: readonly OtherRuntime[];
}

/**
 * The conformance suite as vitest tests. `module` is the strategy's module specifier (a package name or an absolute
 * file URL): the suite imports it here and inside real worker threads, so it must be built JavaScript.
 * Checks that the provider's capabilities rule out are skipped, with the reason in their title.
 */
export function describeCwdStrategy(module: string, settings: DescribeOptions = {}): void {
  const { options, runtimes = OTHER_RUNTIMES } = settings;
  const label = options === undefined ? module : `${module} ${JSON.stringify(options)}`;
  describe(`conformance: ${label}`, async () => {
    // Whatever a check did, the next one never starts in a deleted directory.
    const start = readOsCwd();
    afterEach(() => {
      try {
        readOsCwd();
      } catch {
        osChdir(start);
      }
    });
    const strategy = await loadStrategy(module);
    const capabilities = capabilitiesOf(strategy, options);
    for (const check of checks) {
      const reason = check.skip?.(capabilities);
      it.skipIf(reason !== undefined)(
        reason === undefined ? check.title : `${check.title} [${reason}]`,
        async (test) => {
          try {
            await runCheck(module, options, strategy, check);
          } catch (error) {
            if (!(error instanceof CheckSkipped)) throw error;
            test.skip(error.message);
          }
        },
        check.budgetMs ?? DEFAULT_BUDGET,
      );
    }
    const cli = fileURLToPath(new URL('./cli.js', import.meta.url));
    for (const name of runtimes) {
      const binary = findRuntime(name);
      const reason = binary === undefined ? `the ${name} npm package is not installed` : runtimeLeftOut(name);
      it.skipIf(reason !== undefined)(
        reason === undefined ? `passes under ${name}` : `passes under ${name} [${reason}]`,
        async () => {
          const args = [module, '--options', JSON.stringify(options ?? null)];
          const { status, output } = await spawnRuntime(name, cli, args, { timeoutMs: RUN_BUDGET - 10_000 });
          expect(output, output).toMatch(/^[1-9]\d* passed, 0 failed, \d+ skipped$/m); // a run where nothing passed is no pass
          expect(status, output).toBe(0);
        },
        RUN_BUDGET,
      );
    }
  });
}
