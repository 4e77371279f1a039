// worker-after-chdir checks every read it times: a strategy that claims worker coherence and reads a stale directory in
// a worker fails the scenario, one that does not claim it is not measured, and a correct one passes.
import process from 'node:process';
import { type LoadedStrategy, type Scenario, scenarios } from '@cwdkit/benchmarks';
import { buildProvider, defineStrategy, osChdir, readOsCwd, type StrategyDefinition } from '@cwdkit/core';
import { describe, expect, it } from 'vitest';

const scenario = scenarios.find((candidate) => candidate.name === 'worker-after-chdir') as Scenario;

async function run(definition: StrategyDefinition<unknown>, url = 'unused:', reverse = false) {
  const strategy: LoadedStrategy = { name: definition.name, url, definition, module: { default: definition } };
  return scenario.run({ strategy, reverse, minCpuTimeMs: 1, workers: 2 });
}

/**
 * The conformance suite's own fixtures (packages/conformance/test/fixtures): `reference.mjs` asks the OS on every call;
 * `claims-coherent.mjs`, broken on purpose, caches per thread and claims worker coherence, so a worker keeps the first
 * directory it read.
 */
async function fixture(name: 'reference' | 'claims-coherent'): Promise<[StrategyDefinition<unknown>, string]> {
  const url = new URL(`../../../packages/conformance/test/fixtures/${name}.mjs`, import.meta.url).href;
  return [((await import(url)) as { default: StrategyDefinition<unknown> }).default, url];
}

describe('worker-after-chdir', () => {
  it('is listed right after worker-miss', () => {
    const names = scenarios.map((candidate) => candidate.name);
    expect(names.indexOf('worker-after-chdir')).toBe(names.indexOf('worker-miss') + 1);
  });

  it('fails a strategy that claims worker coherence and reads a stale directory in a worker', async () => {
    const start = process.cwd();
    const result = await run(...(await fixture('claims-coherent')));
    expect(process.cwd()).toBe(start);
    const failed = result.checks.filter((check) => !check.ok);
    expect(failed.map((check) => check.name)).toEqual(['no wrong read from a workerCoherent strategy']);
    const subject = result.rows.find((row) => row.key === 'provider');
    // Its worker keeps the first directory it read: almost every read after a chdir is wrong.
    expect(subject?.stale?.stale).toBeGreaterThan((subject?.stale?.reads ?? 0) / 2);
    expect(failed[0]?.detail).toBe(`got ${subject?.stale?.stale}, expected 0`);
  });

  it('measures a correct strategy: no-op first, then baseline, subject, control (reversed on odd rounds)', async () => {
    const [definition, url] = await fixture('reference');
    for (const reverse of [false, true]) {
      const result = await run(definition, url, reverse);
      expect(result.checks).toEqual([
        { name: 'every OS read is the directory just published', ok: true },
        { name: 'no wrong read from a workerCoherent strategy', ok: true },
      ]);
      const keys = ['baseline', 'provider', 'control'];
      const roles = { noop: 'noop', baseline: 'baseline', provider: 'subject', control: 'control' };
      expect(result.rows.map((row) => row.key)).toEqual(['noop', ...(reverse ? keys.reverse() : keys)]);
      for (const row of result.rows) expect(row.role).toBe(roles[row.key as keyof typeof roles]);
      for (const row of result.rows) {
        expect(row.stats).toMatchObject({ samples: 2000, opsPerSample: 1 });
        expect(row.stats.min).toBeLessThanOrEqual(row.stats.p50);
        expect(row.stats.p50).toBeLessThanOrEqual(row.stats.p99);
        // Every read is checked, the untimed warm-up reads too; the no-op reads nothing.
        if (row.role === 'noop') expect(row.stale).toBeUndefined();
        else expect(row.stale).toEqual({ reads: expect.any(Number), stale: 0 });
        if (row.stale) expect(row.stale.reads).toBeGreaterThanOrEqual(4000);
      }
    }
  });

  it('does not measure a strategy that is not workerCoherent (its worker may keep the old directory)', async () => {
    const honest = defineStrategy({
      specVersion: 1,
      name: 'honest',
      description: 'the OS, declared not coherent',
      create: () =>
        buildProvider({
          strategy: 'honest',
          capabilities: { workerCoherent: false, chdirFromWorker: false, externalChange: 'never' },
          cwd: readOsCwd,
          chdir: osChdir,
          invalidate() {},
        }),
    });
    // No worker is started: the strategy's URL is never imported.
    const result = await run(honest as StrategyDefinition<unknown>);
    expect(result.rows).toEqual([]);
    expect(result.checks).toEqual([
      expect.objectContaining({ ok: true, detail: expect.stringContaining('not measured') }),
    ]);
  });
});
