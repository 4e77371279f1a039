import { readOsCwd } from '@cwdkit/core';
import { controlOf, do_not_optimize, measureRows, type RowSpec, same } from '../measure.js';
import type { Scenario } from '../scenario.js';

/** What @cwdkit/native exports for this scenario. */
interface NapiExports {
  noop(): unknown;
  getcwd(): string;
}

let counter = 0;
/** The seed's JS function: as small as a call can be. */
function js(): number {
  return counter++;
}

export const napiCall: Scenario = {
  name: 'napi-call',
  description: 'a JS call against a no-op Node-API call and the native getcwd (needs @cwdkit/native)',
  seed: '001: a Node-API call 36 → 20 ns, a C++ V8 binding 8 ns (misc/function_call)',
  strategies: ['native'],
  async run(context) {
    const napi = context.strategy.module.napi as NapiExports | undefined;
    if (typeof napi?.noop !== 'function' || typeof napi.getcwd !== 'function') {
      throw new Error(`@cwdkit/${context.strategy.name} does not export napi = { noop(), getcwd() }`);
    }
    const provider = context.strategy.definition.create();
    try {
      const checks = [same('napi.getcwd() is the OS cwd', napi.getcwd(), readOsCwd())];
      const baseline: RowSpec = { key: 'baseline', label: 'js()', role: 'baseline', fn: () => do_not_optimize(js()) };
      const rows: RowSpec[] = [
        baseline,
        { key: 'napi-noop', label: 'napi.noop()', role: 'subject', fn: () => do_not_optimize(napi.noop()) },
        { key: 'napi-getcwd', label: 'napi.getcwd()', role: 'subject', fn: () => do_not_optimize(napi.getcwd()) },
        { key: 'provider', label: 'provider.cwd()', role: 'subject', fn: () => do_not_optimize(provider.cwd()) },
        controlOf(baseline),
      ];
      return { rows: await measureRows(rows, context), checks };
    } finally {
      provider.close();
    }
  },
};
