// A generated vitest project (issue #28 item 5): test files that read a fixture and spawn a child, none of which
// chdirs, so that vitest's pool 'threads' runs it without thread-cwd too. Pool 'threads' with the setup entry against
// bare 'threads' (the goal: at most 1.05×) and against 'forks' (the user's other choice). One vitest process per run,
// through the whole-process code that startup and real-* use (processes.ts). The project is the one
// apps/vitest-threads/scripts/measure.mjs --generated measures (scripts/generated.mjs), made in a folder of its own.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runtime } from '@cwdkit/core';
import type { Scenario } from '../scenario.js';
import { measureProcesses, type ProcessRow } from './processes.js';
import { APP, vitestRun } from './vitest-threads.js';

/** Test files: each runs in a fresh worker (vitest isolates files), so the entry is paid once a file; ~10 s a run here. */
const FILES = { full: 30, quick: 8 };

export const vitestGenerated: Scenario = {
  name: 'vitest-generated',
  description: `a generated vitest project (vitest 4, ${FILES.full} test files that read a fixture and spawn a child, none chdirs): pool 'threads' with thread-cwd's setupFiles entry against bare 'threads' and 'forks'; one vitest process per run, wall time (Node)`,
  claim: "issue #28: vitest 'threads' with the setup entry at most 1.05× bare 'threads', and faster than 'forks'",
  strategies: ['thread-cwd'],
  slow: true,
  aaRetries: 0,
  goal: { rows: ['provider'], against: 'baseline', atMost: 1.05 },
  compare: [
    { rows: ['provider'], against: 'forks' },
    { rows: ['forks'], against: 'baseline' },
  ],
  async run(context) {
    if (runtime !== 'node') {
      return { rows: [], checks: [], notApplicable: 'the project runs vitest on Node; thread-cwd covers Node workers' };
    }
    const quick = context.minCpuTimeMs < 20;
    const { generate } = (await import(pathToFileURL(path.join(APP, 'scripts', 'generated.mjs')).href)) as {
      generate(files: number, dir: string): string;
    };
    // Inside the app, where vitest and @cwdkit/thread-cwd resolve; one folder per bench process.
    const dir = generate(quick ? FILES.quick : FILES.full, path.join(APP, `.generated-bench-${process.pid}`));
    try {
      const run = vitestRun();
      const bare = run('vitest.bare.config.ts');
      const rows: ProcessRow[] = [
        { key: 'baseline', label: "vitest run, pool 'threads', bare", role: 'baseline', command: bare, cwd: dir },
        {
          key: 'provider',
          label: "vitest run, pool 'threads' + thread-cwd",
          role: 'subject',
          command: run('vitest.threads.config.ts'),
          cwd: dir,
        },
        {
          key: 'forks',
          label: "vitest run, pool 'forks'",
          role: 'comparison',
          command: run('vitest.forks.config.ts'),
          cwd: dir,
        },
        ...(quick
          ? []
          : [
              {
                key: 'control',
                label: "vitest run, pool 'threads', bare (A/A)",
                role: 'control' as const,
                command: bare,
                cwd: dir,
              },
            ]),
      ];
      // Every run must pass (timeRun throws otherwise).
      const results = measureProcesses(rows, { runs: 1, rssRuns: 0, warmUp: !quick, reverse: context.reverse });
      return { rows: results, checks: [] };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
