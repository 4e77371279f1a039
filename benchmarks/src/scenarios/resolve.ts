import path from 'node:path';
import { controlOf, measureRows, type RowSpec, same } from '../measure.js';
import type { Scenario } from '../scenario.js';

export const resolve: Scenario = {
  name: 'resolve',
  description: "provider.resolve('src', 'index.ts') against path.resolve('src', 'index.ts')",
  claim: 'Node\'s cwd cache PR: "path.resolve up to 66% faster"; the target here: ≥ 5× on Node, ≥ 10× on Bun',
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
        fn: () => path.resolve('src', 'index.ts'),
      };
      // The floor for a resolve that builds its answer per call: the cwd with its "/" already on, from a field the
      // JIT must load (written twice), and one concatenation of the two names. No such resolve beats baseline ÷ this.
      const held = { v: '' };
      held.v = 'x';
      const cwd = provider.cwd();
      held.v = cwd === '/' ? cwd : `${cwd}/`; // the root already ends in its slash
      const names = 'src/index.ts';
      checks.push(same('the join alone', held.v + names, path.resolve('src', 'index.ts')));
      const rows: RowSpec[] = [
        baseline,
        {
          key: 'join',
          label: 'the join alone: (cwd + "/") + "src/index.ts"',
          role: 'reference',
          fn: () => held.v + names,
        },
        {
          key: 'provider',
          label: "provider.resolve('src', 'index.ts')",
          role: 'subject',
          fn: () => provider.resolve('src', 'index.ts'),
        },
        controlOf(baseline),
      ];
      return { rows: await measureRows(rows, context), checks };
    } finally {
      provider.close();
    }
  },
};
