import { readOsCwd } from '@cwdkit/core';
import { controlOf, measureRows, type RowSpec, same } from '../measure.js';
import type { Scenario } from '../scenario.js';

/** What @cwdkit/native exports for this scenario. */
interface NapiExports {
  noop(): unknown;
  getcwd(): string;
}

let counter = 0;
/** The benchmark's JS function: as small as a call can be. */
function js(): number {
  return counter++;
}

export const napiCall: Scenario = {
  name: 'napi-call',
  description: 'a JS call against a no-op Node-API call and the native getcwd (needs @cwdkit/native)',
  claim: "Node's Node-API call benchmark (misc/function_call): 36 → 20 ns a call, a C++ V8 binding 8 ns",
  strategies: ['native'],
  async run(context) {
    const napi = context.strategy.module.napi as NapiExports | undefined;
    if (typeof napi?.noop !== 'function' || typeof napi.getcwd !== 'function') {
      throw new Error(`@cwdkit/${context.strategy.name} does not export napi = { noop(), getcwd() }`);
    }
    const provider = context.strategy.definition.create();
    try {
      const checks = [same('napi.getcwd() is the OS cwd', napi.getcwd(), readOsCwd())];
      const baseline: RowSpec = { key: 'baseline', label: 'js()', role: 'baseline', fn: () => js() };
      const rows: RowSpec[] = [
        baseline,
        { key: 'napi-noop', label: 'napi.noop()', role: 'subject', fn: () => napi.noop() ?? 0 },
        { key: 'napi-getcwd', label: 'napi.getcwd()', role: 'subject', fn: () => napi.getcwd() },
        { key: 'provider', label: 'provider.cwd()', role: 'subject', fn: () => provider.cwd() },
        controlOf(baseline),
      ];
      return { rows: await measureRows(rows, context), checks };
    } finally {
      provider.close();
    }
  },
};
