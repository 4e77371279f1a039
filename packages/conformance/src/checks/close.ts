// close() and [Symbol.dispose].
import assert from 'node:assert/strict';
import { readOsCwd } from '@cwdkit/core';
import type { Check } from './support.js';
export const closeChecks: readonly Check[] = [
  {
    title: 'close() twice is harmless, and a closed provider refuses with ERR_CWDKIT_CLOSED',
    run(context) {
      const [provider, other] = [context.provider(), context.provider()];
      provider.close();
      provider.close();
      assert.throws(() => provider.cwd(), { code: 'ERR_CWDKIT_CLOSED' });
      assert.throws(() => provider.chdir(context.scratch), { code: 'ERR_CWDKIT_CLOSED' });
      assert.equal(other.cwd(), readOsCwd(), 'closing one provider leaves the others working');
    },
  },
  {
    title: '[Symbol.dispose] closes the provider',
    run(context) {
      const provider = context.provider();
      provider[Symbol.dispose]();
      assert.throws(() => provider.cwd(), { code: 'ERR_CWDKIT_CLOSED' });
    },
  },
];
