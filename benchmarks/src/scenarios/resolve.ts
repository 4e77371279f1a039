import path from 'node:path';
import { controlOf, do_not_optimize, measureRows, type RowSpec, same } from '../measure.js';
import type { Scenario } from '../scenario.js';

export const resolve: Scenario = {
  name: 'resolve',
  description: "provider.resolve('src', 'index.ts') against path.resolve('src', 'index.ts')",
  seed: '000: "path.resolve up to 66% faster"; the target here: provider.resolve ≥ 4× faster than path.resolve on Node',
  async run(context) {
    const provider = context.strategy.definition.create();
    try {
      const checks = [
        same("resolve('src', 'index.ts')", provider.resolve('src', 'index.ts'), path.resolve('src', 'index.ts')),
      ];
      const baseline: RowSpec = {
        key: 'baseline',
        label: "path.resolve('src', 'index.ts')",
        role: 'baseline',
        fn: () => do_not_optimize(path.resolve('src', 'index.ts')),
      };
      const rows: RowSpec[] = [
        baseline,
        {
          key: 'provider',
          label: "provider.resolve('src', 'index.ts')",
          role: 'subject',
          fn: () => do_not_optimize(provider.resolve('src', 'index.ts')),
        },
        controlOf(baseline),
      ];
      return { rows: await measureRows(rows, context), checks };
    } finally {
      provider.close();
    }
  },
};
