import { readOsCwd } from '@cwdkit/core';
import { baselineCwd } from '../fixtures.js';
import { controlOf, measureRows, mutableCacheRow, type RowSpec, same } from '../measure.js';
import type { Scenario } from '../scenario.js';

export const cwdHot: Scenario = {
  name: 'cwd-hot',
  description:
    "cwd() in a hot loop, against the runtime's own (Deno.cwd() on Deno) and a real mutable cache (h.v ?? miss())",
  claim: "Node's cwd cache PR: 1e7 calls of process.cwd() 5596 → 478 ms once cached (11.7×)",
  async run(context) {
    const provider = context.strategy.definition.create();
    try {
      const checks = [same('cwd() is the OS cwd', provider.cwd(), readOsCwd())];
      const baseline: RowSpec = { key: 'baseline', label: baselineCwd.cwdLabel, role: 'baseline', fn: baselineCwd.cwd };
      const rows: RowSpec[] = [
        baseline,
        mutableCacheRow(baselineCwd.cwd),
        { key: 'provider', label: 'provider.cwd()', role: 'subject', fn: () => provider.cwd() },
        controlOf(baseline),
      ];
      return { rows: await measureRows(rows, context), checks };
    } finally {
      provider.close();
    }
  },
};
