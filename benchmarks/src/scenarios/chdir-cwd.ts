import { readOsCwd } from '@cwdkit/core';
import { baselineCwd, tempDirs } from '../fixtures.js';
import { controlOf, measureRows, type RowSpec, same } from '../measure.js';
import type { Scenario } from '../scenario.js';

export const chdirCwd: Scenario = {
  name: 'chdir-cwd',
  // Its intervals were within ±3% at 10 rounds (2026-12-01b): 6 keep them tight and the recording within its time.
  rounds: 6,
  description:
    "chdir() then cwd(), alternating between two directories, against the runtime's own pair (Deno's on Deno)",
  claim: 'Node\'s cwd cache PR: "process.chdir 10× faster"',
  async run(context) {
    const { dirs, remove } = tempDirs(2);
    const [a, b] = dirs as [string, string];
    const provider = context.strategy.definition.create();
    try {
      provider.chdir(b);
      const checks = [same('cwd() after chdir()', provider.cwd(), b), same('the OS agrees', readOsCwd(), b)];
      let flip = false;
      const baseline: RowSpec = {
        key: 'baseline',
        label: baselineCwd.chdirLabel,
        role: 'baseline',
        fn: () => {
          flip = !flip;
          baselineCwd.chdir(flip ? a : b);
          return baselineCwd.cwd();
        },
      };
      const rows: RowSpec[] = [
        baseline,
        {
          key: 'provider',
          label: 'provider.chdir() + provider.cwd()',
          role: 'subject',
          // The baseline changed directory behind the provider's back: start from a known state.
          before: () => provider.invalidate(),
          fn: () => {
            flip = !flip;
            provider.chdir(flip ? a : b);
            return provider.cwd();
          },
        },
        controlOf(baseline),
      ];
      return { rows: await measureRows(rows, context), checks };
    } finally {
      provider.close();
      remove();
    }
  },
};
