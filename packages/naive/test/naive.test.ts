import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { findRuntime, spawnRuntime } from '@cwdkit/conformance/harness';
import { originals } from '@cwdkit/core';
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

  // workerCoherent is false on Node 20 and 22 and Bun because the runtime's own worker cache is stale, measured here
  // in a real child of each; on Node 24 and 26 it is true, and the conformance run under each proves it (its worker
  // checks and stale-read storm run there). The race is a matter of timing: it gets up to five paused storms.
  // 'node' is the Node running this suite: one of those only below 24 (test-node-majors runs it on 24 and 26 too).
  const script = fileURLToPath(new URL('./fixtures/stale-storm.mjs', import.meta.url));
  const ownMajor = Number(process.versions.node.split('.')[0]);
  for (const runtime of ownMajor < 24 ? (['node', 'node22', 'bun'] as const) : (['node22', 'bun'] as const)) {
    const missing = runtime !== 'node' && findRuntime(runtime) === undefined;
    it.skipIf(missing)(
      `workers read stale directories on ${runtime}, so naive does not claim workerCoherent there`,
      async () => {
        const { status, output } = await spawnRuntime(runtime, script, [], { timeoutMs: 170_000 });
        expect(status, output).toBe(0);
        const { stale, checked } = JSON.parse(output.trim().split('\n').at(-1) as string);
        expect(checked).toBeGreaterThan(1_000);
        expect(stale).toBeGreaterThan(0);
      },
      180_000,
    );
  }

  it('claims workerCoherent exactly where the runtime is (Node 24 and later)', () => {
    expect(createProvider().capabilities.workerCoherent).toBe(ownMajor >= 24);
  });
});
