// The example project apps/vitest-threads (#22 item 7): its wall time on vitest's pool 'threads' with thread-cwd (one
// setupFiles line) against pool 'forks' without it, the user's other choice. One vitest process per run, through the
// whole-process code that startup and real-* use (processes.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtime } from '@cwdkit/core';
import type { Scenario } from '../scenario.js';
import { cleanEnv, type Launch, launch, measureProcesses, type ProcessRow } from './processes.js';

/** The example, beside this package in the workspace (dist/ → benchmarks/ → the repository). */
export const APP = fileURLToPath(new URL('../../apps/vitest-threads/', import.meta.url));

/** `vitest run --config <config>` with the example's vitest, as one process of a row (colours off). */
export function vitestRun(): (config: string) => Launch {
  const vitest = path.join(
    path.dirname(createRequire(path.join(APP, 'package.json')).resolve('vitest/package.json')),
    'vitest.mjs',
  );
  const env = cleanEnv({ FORCE_COLOR: '0' });
  return (config) => launch(vitest, ['run', '--config', config], undefined, env);
}

export const vitestThreads: Scenario = {
  name: 'vitest-threads',
  description:
    "the example project apps/vitest-threads (vitest 4, test files that chdir in parallel): pool 'threads' with thread-cwd's setupFiles entry against pool 'forks'; one vitest process per run, wall time (Node)",
  claim: "issue #22: the example's wall time on pool 'threads' with thread-cwd against pool 'forks', whatever it shows",
  strategies: ['thread-cwd'],
  slow: true,
  // A run is a second: a retry is the cost of the whole job again, and the interval over rounds shows the noise.
  aaRetries: 0,
  async run(context) {
    if (runtime !== 'node') {
      return {
        rows: [],
        checks: [],
        notApplicable: `the example runs vitest on Node; thread-cwd covers Node's workers`,
      };
    }
    if (!fs.existsSync(path.join(APP, 'vitest.config.ts'))) throw new Error(`vitest-threads: no example at ${APP}`);
    const quick = context.minCpuTimeMs < 20;
    const run = vitestRun();
    const forks = run('vitest.forks.config.ts');
    const rows: ProcessRow[] = [
      { key: 'baseline', label: "vitest run, pool 'forks'", role: 'baseline', command: forks, cwd: APP },
      {
        key: 'provider',
        label: "vitest run, pool 'threads' + thread-cwd",
        role: 'subject',
        command: run('vitest.config.ts'),
        cwd: APP,
      },
      ...(quick
        ? []
        : [
            {
              key: 'control',
              label: "vitest run, pool 'forks' (A/A)",
              role: 'control' as const,
              command: forks,
              cwd: APP,
            },
          ]),
    ];
    // Every run must pass (timeRun throws otherwise): the threads config fails without thread-cwd.
    const results = measureProcesses(rows, { runs: 1, rssRuns: 0, warmUp: !quick, reverse: context.reverse });
    return { rows: results, checks: [] };
  },
};
