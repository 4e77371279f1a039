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
      for (const name of ['one', 'two']) {
        const target = context.dir(name);
        provider.cwd();
        osChdir(target);
        if (provider.polls) {
          // Decided from the strategy's own count of its checks, which load cannot turn around: two more than at the
          // change are always enough. The clock only ends a wait for a check that never comes.
          const polled = provider.polls();
          const started = performance.now();
          while (provider.polls() < polled + 2) {
            assert.ok(performance.now() - started < 60_000, 'no check for a change completed in 60 s');
            sleep(1);
          }
          assert.equal(provider.cwd(), target, 'not seen after two checks completed since the change');
          continue;
        }
        // Without a count: scheduling slack far above what a loaded machine delays a thread (250 ms was not: two
        // cores shared with other test runs); a strategy that never notices still fails, and one that notices late is
        // told by how much.
        const slack = 5_000;
        const started = performance.now();
        while (provider.cwd() !== target) {
          assert.ok(performance.now() - started < bound + slack, `not seen within ${bound} ms (+${slack} ms slack)`);
          sleep(1);
        }
      }
    },
  },
];
