import path from 'node:path';
import { install } from 'cwdkit';
import { controlOf, measureRows, type RowSpec, same } from '../measure.js';
import type { Scenario } from '../scenario.js';

export const installResolve: Scenario = {
  name: 'install-resolve',
  description: "path.resolve('src', 'index.ts') in code that never heard of cwdkit, before and after install(provider)",
  claim:
    'Node\'s cwd cache PR: "path.resolve up to 66% faster", here for every library in the process at once (install() ' +
    'replaces path.resolve itself); the target here: ≥ 3× on Node 24',
  async run(context) {
    const provider = context.strategy.definition.create();
    let uninstall: (() => void) | undefined;
    const installed = (on: boolean) => () => {
      if (on && !uninstall) uninstall = install(provider);
      if (!on && uninstall) {
        uninstall();
        uninstall = undefined;
      }
    };
    try {
      const before = path.resolve('src', 'index.ts');
      installed(true)();
      const checks = [same('path.resolve after install()', path.resolve('src', 'index.ts'), before)];
      installed(false)();
      const baseline: RowSpec = {
        key: 'baseline',
        label: "path.resolve('src', 'index.ts'), the runtime's cwd",
        role: 'baseline',
        before: installed(false),
        fn: () => path.resolve('src', 'index.ts'),
      };
      const rows: RowSpec[] = [
        baseline,
        {
          key: 'provider',
          label: "path.resolve('src', 'index.ts') after install()",
          role: 'subject',
          before: installed(true),
          fn: () => path.resolve('src', 'index.ts'),
        },
        controlOf(baseline),
      ];
      // Each row's before() installs or uninstalls: taken in turns, every turn would swap path.resolve under the others.
      return { rows: await measureRows(rows, context, { interleave: false }), checks };
    } finally {
      installed(false)();
      provider.close();
    }
  },
};
