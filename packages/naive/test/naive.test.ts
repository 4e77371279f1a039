import process from 'node:process';
import { measureStaleReads } from '@cwdkit/conformance';
import { originals, runtime } from '@cwdkit/core';
import naive, { createProvider, strategy } from '@cwdkit/naive';
import { describe, expect, it } from 'vitest';

describe('@cwdkit/naive', () => {
  it('exports one strategy three ways', () => {
    expect(naive).toBe(strategy);
    expect(createProvider().strategy).toBe('naive');
  });

  it("hands out the runtime's own answer", () => {
    using provider = createProvider();
    expect(provider.cwd()).toBe(originals.processCwd.call(process));
  });

  // workerCoherent is false on Node and Bun because the runtime's own worker cache is stale, measured here.
  // The race is a matter of timing: a pause before each chdir lets it show, and it gets up to five storms.
  it.runIf(runtime !== 'deno')(
    'workers read stale directories on this runtime, as its capabilities declare',
    async () => {
      expect(createProvider().capabilities.workerCoherent).toBe(false);
      let stale = 0;
      for (let storm = 0; storm < 5 && stale === 0; storm++) {
        const result = await measureStaleReads({
          module: '@cwdkit/naive',
          workers: 2,
          chdirs: 10_000,
          directories: 64,
        });
        expect(result.checked).toBeGreaterThan(10_000);
        stale = result.stale;
      }
      expect(stale).toBeGreaterThan(0);
    },
  );
});
