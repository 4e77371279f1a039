// Each measuring artefact that made the old headline lie (ARCHITECTURE trap 8), and the check that now catches it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { findRuntime } from '@cwdkit/conformance';
import { measure } from 'mitata';
import { describe, expect, it } from 'vitest';
import {
  assertNotUnrolled,
  assertReturnsResult,
  assertUniqueLoop,
  compileRow,
  isFlatString,
  measureFn,
  measureRows,
  mutableCacheRow,
  sink,
  UNROLL,
} from '../src/measure.js';

const context = { reverse: false, minCpuTimeMs: 1, workers: 1 } as never;
/** Two strings the JIT cannot fold together: fields written twice with different values. */
const parts = { a: '', b: '' };
parts.a = 'a'.repeat(40);
parts.b = 'b'.repeat(40);

describe('a loop shared by two rows (JSC shares one call-site profile per source)', () => {
  it('mitata builds the same loop text for two rows with the same options: the check throws on the second', async () => {
    const options = { min_cpu_time: 1e5, batch_samples: 64 };
    const first = (await measure(() => process.cwd(), options)) as unknown as { debug: string };
    const second = (await measure(() => process.cwd(), options)) as unknown as { debug: string };
    const seen = new Set<string>();
    assertUniqueLoop(first.debug, seen);
    expect(() => assertUniqueLoop(second.debug, seen)).toThrow('two rows were measured by the same loop source');
  });

  it('the engine gives every row its own loop and its own call: measuring many rows never trips the check', async () => {
    const a = compileRow(() => process.cwd(), 'a');
    const b = compileRow(() => process.cwd(), 'b');
    expect(a.call.toString()).not.toBe(b.call.toString());
    expect(a.block.toString()).not.toBe(b.block.toString());
    const rows = ['x', 'y', 'z'].map((key) => ({ key, label: key, role: 'subject' as const, fn: () => process.cwd() }));
    const results = await measureRows(rows, context);
    expect(results.map((row) => row.key)).toEqual(['noop', 'x', 'y', 'z']);
  });
});

describe('an unrolled loop (V8 shares loads across the copies: 1.9 ns read as 0.47)', () => {
  it("mitata's default unrolls 4 calls per pass: caught; the engine's loop calls once", async () => {
    const unrolled = (await measure(() => process.cwd(), { min_cpu_time: 1e5, batch_samples: 64 })) as unknown as {
      debug: string;
    };
    expect(() => assertNotUnrolled(unrolled.debug)).toThrow('4 times per pass');
    const single = (await measure(() => process.cwd(), {
      min_cpu_time: 1e5,
      batch_samples: 64,
      batch_unroll: UNROLL,
    })) as unknown as { debug: string };
    expect(() => assertNotUnrolled(single.debug)).not.toThrow();
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
    row.call();
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

  it('the engine flattens what a row returns, in its measured call and in its warm-up loop', () => {
    const row = compileRow(() => parts.a + parts.b, 'rope');
    expect(row.flattens).toBe(true);
    row.call();
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
  /** The source of a compiled row's measured call and warm-up loop, compiled by the engine on `runtime`. */
  function compiledOn(runtime: string): { call: string; block: string } {
    const measureTs = path.resolve(import.meta.dirname, '../src/measure.ts');
    const script = `import { compileRow } from ${JSON.stringify(measureTs)};
      const row = compileRow(() => 'x', 'join');
      console.log(JSON.stringify({ call: String(row.call), block: String(row.block) }));`;
    const ran = spawnSync(runtime, ['-e', script], { encoding: 'utf8', cwd: path.resolve(import.meta.dirname, '..') });
    expect(ran.status, ran.stderr).toBe(0);
    return JSON.parse(ran.stdout) as { call: string; block: string };
  }

  it('on Bun, every pass calls a function JSC may not inline before it calls the row', () => {
    const bun = findRuntime('bun');
    expect(bun, 'bun is a devDependency of the project').toBeDefined();
    const { call, block } = compiledOn(bun as string);
    expect(call).toMatch(/barrier\(\); let v = fn\(\);/);
    expect(block).toMatch(/for \(let i = 0; i < n; i\+\+\) \{ barrier\(\); let v = fn\(\);/);
  });

  it('on V8, which does not hoist these rows, the loop calls the row alone', () => {
    const row = compileRow(() => 'x', 'join');
    expect(String(row.block)).toMatch(/\{ let v = fn\(\);/);
    expect(String(row.block)).not.toContain('barrier()');
  });
});
