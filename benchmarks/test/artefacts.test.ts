// Each measuring artefact that made the old headline lie (ARCHITECTURE trap 8), and the check that now catches it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { findRuntime } from '@cwdkit/conformance';
import { describe, expect, it } from 'vitest';
import {
  assertReturnsResult,
  compileRow,
  isFlatString,
  MIN_TURNS,
  measureFn,
  measureRows,
  mutableCacheRow,
  sink,
} from '../src/measure.js';

const context = { reverse: false, minCpuTimeMs: 1, workers: 1 } as never;
/** Two strings the JIT cannot fold together: fields written twice with different values. */
const parts = { a: '', b: '' };
parts.a = 'a'.repeat(40);
parts.b = 'b'.repeat(40);

describe('a loop shared by two rows (JSC shares one call-site profile per source)', () => {
  it('the engine gives every row its own loop, even for the same function: no two sources are alike', async () => {
    const same = () => process.cwd();
    const a = compileRow(same, 'a');
    const b = compileRow(same, 'a');
    expect(a.block.toString()).not.toBe(b.block.toString());
    const rows = ['x', 'y', 'z'].map((key) => ({ key, label: key, role: 'subject' as const, fn: () => process.cwd() }));
    const results = await measureRows(rows, context);
    expect(results.map((row) => row.key)).toEqual(['noop', 'x', 'y', 'z']);
  });
});

describe('an unrolled loop (V8 shares loads across the copies: 1.9 ns read as 0.47)', () => {
  it("the engine's loop calls the row once per pass (mitata's default unrolled 4 calls)", () => {
    const row = compileRow(() => process.cwd(), 'once');
    expect(String(row.block).split('fn()').length - 1).toBe(1);
  });
});

describe('a result that is never consumed', () => {
  it('a row that computes and returns nothing is refused, before anything is measured', async () => {
    const forgetful = {
      key: 'forgetful',
      label: 'process.cwd() dropped',
      role: 'subject' as const,
      fn: () => {
        process.cwd();
      },
    };
    expect(() => assertReturnsResult(forgetful)).toThrow('returns nothing');
    await expect(measureRows([forgetful], context)).rejects.toThrow('returns nothing');
  });

  it('what a row returns reaches the sink on every call', () => {
    let calls = 0;
    const row = compileRow(() => ++calls, 'counter');
    row.block(1);
    expect(sink.value).toBe(calls);
    row.block(10);
    expect(sink.value).toBe(calls);
  });
});

describe('a string that is never flattened (a rope skips the ~770-instruction flatten path.resolve pays)', () => {
  it('a rope stays a rope when nobody flattens it: the check sees it', () => {
    const rope = parts.a + parts.b;
    expect(isFlatString(rope)).toBe(false);
  });

  it('the engine flattens what a row returns, in the loop it measures and warms up', () => {
    const row = compileRow(() => parts.a + parts.b, 'rope');
    expect(row.flattens).toBe(true);
    row.block(1);
    expect(sink.value).toBe(parts.a + parts.b);
    expect(isFlatString(sink.value)).toBe(true);
    row.block(3);
    expect(isFlatString(sink.value)).toBe(true);
    // A flat result pays nothing extra.
    expect(compileRow(() => process.cwd(), 'flat').flattens).toBe(false);
  });
});

describe('a constant folded away (the old "cached string" row measured the empty loop)', () => {
  it('the reference is a real mutable cache: it returns what was last written, and refills after a miss', () => {
    let misses = 0;
    const reference = mutableCacheRow(() => `/miss/${++misses}`);
    expect(reference.role).toBe('reference');
    expect(reference.fn()).toBe('/miss/1');
    reference.cache.v = '/written';
    expect(reference.fn()).toBe('/written'); // a closure over a constant would still say /miss/1
    reference.cache.v = undefined;
    expect(reference.fn()).toBe('/miss/2');
    expect(reference.fn()).toBe('/miss/2');
  });

  it('measured through the engine, the reference costs more than the no-op floor it would fold into', async () => {
    const reference = mutableCacheRow(() => process.cwd());
    const measured = await measureFn(reference.fn, 5, 'reference');
    expect(measured.p50).toBeGreaterThan(0);
    expect(sink.value).toBe(process.cwd());
  });
});

describe('a row hoisted out of the loop (JSC computed a pure join once: provider.resolve read 1.4 ns, path.resolve 560)', () => {
  /** The source of a compiled row's loop, compiled by the engine on `runtime`. */
  function compiledOn(runtime: string): { block: string } {
    const measureTs = path.resolve(import.meta.dirname, '../src/measure.ts');
    const script = `import { compileRow } from ${JSON.stringify(measureTs)};
      const row = compileRow(() => 'x', 'join');
      console.log(JSON.stringify({ block: String(row.block) }));`;
    const ran = spawnSync(runtime, ['-e', script], { encoding: 'utf8', cwd: path.resolve(import.meta.dirname, '..') });
    expect(ran.status, ran.stderr).toBe(0);
    return JSON.parse(ran.stdout) as { block: string };
  }

  it('on Bun, every pass calls a function JSC may not inline before it calls the row', () => {
    const bun = findRuntime('bun');
    expect(bun, 'bun is a devDependency of the project').toBeDefined();
    const { block } = compiledOn(bun as string);
    expect(block).toMatch(/for \(let i = 0; i < n; i\+\+\) \{ barrier\(\); let v = fn\(\);/);
  });

  it('on V8, which does not hoist these rows, the loop calls the row alone', () => {
    const row = compileRow(() => 'x', 'join');
    expect(String(row.block)).toMatch(/\{ let v = fn\(\);/);
    expect(String(row.block)).not.toContain('barrier()');
  });
});

describe('rows measured one after another (the machine changed speed between them: a ratio of two spells)', () => {
  it('measures the rows in turns, the order reversed every other round, each until its budget is spent', async () => {
    const turns: string[] = [];
    const rows = ['baseline', 'provider', 'control'].map((key) => ({
      key,
      label: key,
      role: 'subject' as const,
      fn: () => process.cwd(),
      before: () => turns.push(key), // runs before each of the row's turns (and once before its warm-up)
    }));
    const results = await measureRows(rows, { reverse: false, minCpuTimeMs: 3, workers: 1 } as never);
    // Each row's before() runs before its warm-up, its untimed turn and each of its timed turns (MIN_TURNS at least,
    // whatever the clock says: so that no figure of this test depends on the machine's speed).
    for (const key of ['baseline', 'provider', 'control']) {
      expect(turns.filter((turn) => turn === key).length).toBeGreaterThanOrEqual(2 + MIN_TURNS);
    }
    // Interleaved: the baseline's turns do not all come before the provider's first.
    expect(turns.lastIndexOf('baseline')).toBeGreaterThan(turns.indexOf('provider'));
    // And in both orders: somewhere the control's turn is followed by the provider's, elsewhere the reverse.
    const pairs = new Set(turns.slice(1).map((turn, i) => `${turns[i]}>${turn}`));
    expect(pairs).toContain('provider>control');
    expect(pairs).toContain('control>provider');
    expect(results.map((row) => row.key)).toEqual(['noop', 'baseline', 'provider', 'control']);
    for (const row of results) expect(row.stats.samples).toBeGreaterThanOrEqual(12);
  });

  it('warms and measures one row after the other when asked (rows whose before() changes the world)', async () => {
    const turns: string[] = [];
    const rows = ['a', 'b'].map((key) => ({
      key,
      label: key,
      role: 'subject' as const,
      fn: () => process.cwd(),
      before: () => turns.push(key),
    }));
    await measureRows(rows, { reverse: false, minCpuTimeMs: 2, workers: 1 } as never, { interleave: false });
    // a's warm-up and all its turns, then b's warm-up and all its turns.
    expect(turns.lastIndexOf('a')).toBeLessThan(turns.indexOf('b'));
    expect(turns.filter((turn) => turn === 'a').length).toBeGreaterThanOrEqual(2 + MIN_TURNS);
  });
});
