// A chdir made behind the provider's back, as externalChange promises.
import assert from 'node:assert/strict';
import { osChdir } from '@cwdkit/core';
import { type Check, sleep } from './support.js';
export const externalChangeChecks: readonly Check[] = [
  {
    title: 'invalidate() reveals a chdir made behind the provider',
    run(context) {
      const provider = context.provider();
      provider.cwd();
      const target = context.dir('behind');
      osChdir(target);
      provider.invalidate();
      assert.equal(provider.cwd(), target);
    },
  },
  {
    title: 'a chdir behind the provider is seen by the next cwd()',
    skip: (capabilities) =>
      capabilities.externalChange === 'immediate' ? undefined : `externalChange is '${capabilities.externalChange}'`,
    run(context) {
      const provider = context.provider();
      for (const name of ['one', 'two', 'three']) {
        const target = context.dir(name);
        provider.cwd();
        osChdir(target);
        assert.equal(provider.cwd(), target);
      }
    },
  },
  {
    title: 'a chdir behind the provider is seen within boundedMs',
    skip: (capabilities) =>
      capabilities.externalChange === 'bounded' ? undefined : `externalChange is '${capabilities.externalChange}'`,
    run(context) {
      const provider = context.provider();
      const bound = provider.capabilities.boundedMs;
      assert.ok(typeof bound === 'number' && bound > 0, "externalChange 'bounded' needs a positive boundedMs");
      // Scheduling slack far above what a loaded machine delays a thread (250 ms was not: two cores shared with other
      // test runs); a strategy that never notices still fails, and one that notices late is told by how much.
      const slack = 5_000;
      for (const name of ['one', 'two']) {
        const target = context.dir(name);
        provider.cwd();
        osChdir(target);
        const started = performance.now();
        while (provider.cwd() !== target) {
          assert.ok(performance.now() - started < bound + slack, `not seen within ${bound} ms (+${slack} ms slack)`);
          sleep(1);
        }
      }
    },
  },
];
