import process from 'node:process';
import { readOsCwd } from '@cwdkit/core';
import { controlOf, do_not_optimize, measureRows, type RowSpec, same } from '../measure.js';
import type { Scenario } from '../scenario.js';

export const cwdHot: Scenario = {
  name: 'cwd-hot',
  description: 'cwd() in a hot loop, against process.cwd() and a closure that returns a cached string',
  seed: "000: Node's 1e7-call loop of process.cwd(), 5596 → 478 ms once cached (11.7×)",
  async run(context) {
    const provider = context.strategy.definition.create();
    try {
      const checks = [same('cwd() is the OS cwd', provider.cwd(), readOsCwd())];
      const cached = process.cwd();
      const cachedString = () => cached;
      const baseline: RowSpec = {
        key: 'baseline',
        label: 'process.cwd()',
        role: 'baseline',
        fn: () => do_not_optimize(process.cwd()),
      };
      const rows: RowSpec[] = [
        baseline,
        {
          key: 'cached-string',
          label: 'cached-string closure',
          role: 'reference',
          fn: () => do_not_optimize(cachedString()),
        },
        { key: 'provider', label: 'provider.cwd()', role: 'subject', fn: () => do_not_optimize(provider.cwd()) },
        controlOf(baseline),
      ];
      return { rows: await measureRows(rows, context), checks };
    } finally {
      provider.close();
    }
  },
};
