import process from 'node:process';
import { measure } from 'mitata';
import type { Measurement, RowResult, RowRole, ScenarioContext } from './scenario.js';

export interface RowSpec {
  readonly key: string;
  readonly label: string;
  readonly role: RowRole;
  /**
   * The operation. It returns its result: the engine consumes it (and reads a character of a string, which flattens a
   * rope the way a caller that uses the string would), so a row cannot forget to (trap 8). Only the no-op returns nothing.
   */
  readonly fn: () => unknown;
  /** Runs before this row is measured, outside the timing (e.g. invalidate a cache another row made stale). */
  readonly before?: () => void;
}

/** V8 (Node, Deno), else JSC (Bun). */
const isV8 = typeof (globalThis as { Bun?: unknown }).Bun === 'undefined';

/**
 * On V8, a full collection before each row, so that earlier rows' garbage (mitata's 8 MiB sample arrays among it) does
 * not start a major GC in the middle of a later row: without it the last row of a process ran 2-5× slower in phases.
 * Not on JSC: its full collection hands pages back to the OS, and the row then faults them in again (in this VM a
 * first touch costs ~15 µs: Bun's join ran at 250 ns a call instead of 42). mitata's own fallback allocates a gigabyte.
 */
const collect = (() => {
  const gc = (globalThis as { gc?: () => void }).gc;
  return isV8 && typeof gc === 'function' ? () => gc() : false;
})();

const clock: () => number = (() => {
  const bun = (globalThis as { Bun?: { nanoseconds(): number } }).Bun;
  return bun ? () => bun.nanoseconds() : () => performance.now() * 1e6;
})();

/** A sample should last this long: ~100 ticks of the coarsest clock seen here (160 ns), far from a scheduler slice. */
const SAMPLE_NS = 20_000;

/** Calls before a row is measured: enough for V8 and JSC to reach their optimizing tier. */
const WARM_CALLS = 50_000;

/** Where consumed results go: a property store the JIT cannot drop (mitata's do_not_optimize does the same). */
export const sink: { value: unknown; char: number } = { value: undefined, char: 0 };

/**
 * V8's own string intrinsics, when the process runs with --allow-natives-syntax (the bench's children do): optimized
 * V8 code reads a character of a rope (ConsString) without flattening it, so only %FlattenString charges the flatten.
 * A rope is told by its map: the same as that of a rope made here (%StringIsFlat is missing before Node 24).
 */
const v8Strings = (() => {
  try {
    const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: string, b: string) => boolean;
    const halves = { latin: '', wide: '' };
    halves.latin = 'cwdkit-bench-rope';
    halves.wide = 'cwdkit-bench-rope-\u2603';
    const ropes = [halves.latin + halves.latin, halves.wide + halves.wide];
    return {
      isRope: (s: string) => ropes.some((rope) => sameMap(s, rope)),
      flatten: '%FlattenString(v)',
    };
  } catch {
    return undefined; // JSC, or V8 without the flag
  }
})();

/**
 * JSC hoists a row whose inlined body is pure out of the loop: a join of fields nothing in the loop writes was computed
 * once, and provider.resolve read 1.4 ns a call against path.resolve's 560. A call JSC may not inline (as any real code
 * between two calls would be) makes every pass load and compute again. On JSC every row's loop pays it, the no-op's
 * too; V8 does not hoist these rows (its join costs what a join costs).
 */
const barrier: (() => void) | undefined = (() => {
  if (isV8) return undefined;
  const jsc = (
    process as unknown as { getBuiltinModule(id: string): { noInline?: (fn: () => void) => void } | undefined }
  ).getBuiltinModule('bun:jsc');
  if (typeof jsc?.noInline !== 'function') {
    throw new Error('cwdkit-bench: this Bun has no bun:jsc noInline(), without which JSC hoists rows out of the loop');
  }
  const opaque = () => {};
  jsc.noInline(opaque);
  return opaque;
})();

/** Whether this process can flatten what a row returns (V8 needs --allow-natives-syntax; JSC's charCodeAt does it). */
export const canFlatten = !isV8 || v8Strings !== undefined;

/**
 * What a row's loop does with a result: keep it, and for a string read a character. On JSC that resolves a rope; on V8
 * a row whose result is a rope flattens it explicitly. `a + b` costs nothing until someone reads it, and
 * `path.resolve` returns a flat string, so a row that returned a rope would skip work its baseline pays for.
 */
function consumer(sample: unknown): { code: string; flattens: boolean } {
  // Emitted only for a row that returns a string: a `typeof` test in the loop costs 0.3-0.5 ns a call on V8, a
  // quarter of a cached cwd(), and the same in every row, so it shrank the speed-ups (trap 8).
  if (typeof sample !== 'string') return { code: 'sink.value = v;', flattens: false };
  const read = 'sink.char = v.charCodeAt(v.length - 1);';
  if (!isV8) return { code: `sink.value = v; ${read}`, flattens: false };
  if (!v8Strings) {
    throw new Error('cwdkit-bench: V8 needs --allow-natives-syntax to flatten the strings rows return');
  }
  if (!v8Strings.isRope(sample)) return { code: `sink.value = v; ${read}`, flattens: false };
  return { code: `v = ${v8Strings.flatten}; sink.value = v; ${read}`, flattens: true };
}

/** Whether V8 holds `value` as one flat string (always true elsewhere, and for what is not a string). */
export function isFlatString(value: unknown): boolean {
  return typeof value !== 'string' || !v8Strings || !v8Strings.isRope(value);
}

/** A row compiled for measuring: its own call and its own block loop, from source no other row shares. */
export interface CompiledRow {
  readonly id: number;
  /** The row's result is a rope that its loop flattens. */
  readonly flattens: boolean;
  /** One call, result consumed: what mitata times. */
  readonly call: () => void;
  /** `n` calls in a loop of this row's own, for the warm-up; returns the elapsed ns. */
  readonly block: (n: number) => number;
}

let rowsCompiled = 0;

/**
 * Compiles a row's call from a source text unique in this process. Engines share what they learn about a call site
 * among functions built from one source (JSC's profile of a `new Function` body, V8's feedback of one closure site):
 * a loop shared by every row turns the call polymorphic, and later rows pay for it.
 */
export function compileRow(fn: () => unknown, name: string): CompiledRow {
  const id = ++rowsCompiled;
  const tag = `${id}: ${name.replace(/\*\//g, '* /')}`;
  const { code, flattens } = consumer(fn());
  const pass = `${barrier ? 'barrier(); ' : ''}let v = fn(); ${code}`;
  const source = `/* cwdkit-bench row ${tag} */
    return {
      call: function row${id}() { ${pass} },
      block: function block${id}(n) {
        const start = clock();
        for (let i = 0; i < n; i++) { ${pass} }
        return clock() - start;
      },
    };`;
  const made = new Function('fn', 'sink', 'clock', 'barrier', source)(fn, sink, clock, barrier) as Omit<
    CompiledRow,
    'id' | 'flattens'
  >;
  return { id, flattens, ...made };
}

/** Every mitata loop this process has run, to prove that no two rows shared one. */
const loopSources = new Set<string>();

/** Throws if mitata built this loop before in this process (the shared call-site profile of trap 8). */
export function assertUniqueLoop(source: string, seen: Set<string> = loopSources): void {
  if (seen.has(source)) throw new Error('cwdkit-bench: two rows were measured by the same loop source');
  seen.add(source);
}

/** Calls of the row per pass of mitata's loop: 1, so that consecutive calls cannot share loads (trap 8). */
export const UNROLL = 1;

/** Throws if a mitata loop calls the row more than once per pass: unrolled copies let V8 share loads across calls. */
export function assertNotUnrolled(source: string): void {
  const calls = source.split('$fn(').length - 1;
  if (calls !== 1) throw new Error(`cwdkit-bench: the loop calls the row ${calls} times per pass (unrolled)`);
}

/**
 * Runs the row until the JIT has settled (a time budget alone is not enough: cold, path.resolve costs 15 µs a call,
 * warm 0.25 µs), then returns the cost of one warm call, from ever larger blocks until one lasts a sample.
 */
function warmUp(row: CompiledRow, budgetNs: number): number {
  const start = clock();
  // The fastest block of the whole warm-up counts too: a few blocks in a row can all hold a pause (Bun once gave a
  // batch of 1 to a 40 ns row that way).
  let fastest = Number.POSITIVE_INFINITY;
  for (let calls = 0; calls < WARM_CALLS && clock() - start < budgetNs; calls += 64) {
    fastest = Math.min(fastest, row.block(64) / 64);
  }
  let calls = 64;
  while (row.block(calls) < SAMPLE_NS && calls < 1 << 16) calls *= 2;
  // The fastest of a few blocks: the first can include a deoptimization, any can include a preemption.
  for (let i = 0; i < 5; i++) fastest = Math.min(fastest, row.block(calls) / calls);
  return fastest;
}

/** One operation through mitata, reduced to what the report keeps. The result of `fn` is consumed. */
export async function measureFn(fn: () => unknown, minCpuTimeMs: number, name = 'row'): Promise<Measurement> {
  const row = compileRow(fn, name);
  const cost = warmUp(row, Math.min(4 * minCpuTimeMs, 100) * 1e6);
  // As many calls per sample as make SAMPLE_NS, at most mitata's 4096.
  const batch = Math.max(1, Math.min(4096, 2 ** Math.floor(Math.log2(SAMPLE_NS / Math.max(cost, 0.01)))));
  const stats = await measure(row.call, {
    min_cpu_time: minCpuTimeMs * 1e6,
    gc: collect,
    batch_samples: batch,
    batch_unroll: UNROLL,
    // mitata batches only when one warm call is under this; a call that costs more than a sample runs alone.
    batch_threshold: SAMPLE_NS,
    // mitata batches only if one of its warm-up calls is that fast, and skips them all after a first call over 0.5 ms
    // (a pause): a 3 ns no-op on Bun was then timed one call per sample, at the timer's 40 ns.
    warmup_threshold: Number.POSITIVE_INFINITY,
    warmup_samples: 10,
    // A literal of the loop's source that differs for every row: mitata would otherwise build every loop from one text.
    max_samples: 1e9 + row.id,
  });
  const { debug } = stats as { debug: string };
  assertNotUnrolled(debug);
  assertUniqueLoop(debug);
  return {
    p50: stats.p50,
    min: stats.min,
    p99: stats.p99,
    avg: stats.avg,
    samples: stats.samples.length,
    opsPerSample: stats.ticks / stats.samples.length,
  };
}

/** The no-op every process measures first: the cost of the harness itself. */
export const noopRow: RowSpec = { key: 'noop', label: 'no-op', role: 'noop', fn: () => undefined };

/** A row must return what it computed: the engine consumes it. A row that returns nothing measured nothing. */
export function assertReturnsResult(row: RowSpec): void {
  if (row.role !== 'noop' && row.fn() === undefined) {
    throw new Error(`cwdkit-bench: row "${row.label}" returns nothing; return the result so that it is consumed`);
  }
}

/**
 * Measures the no-op, then the rows in the given order, or in the opposite order on odd rounds. List the baseline
 * first and the control last, so that each of the two comes first in every other round.
 */
export async function measureRows(rows: readonly RowSpec[], context: ScenarioContext): Promise<RowResult[]> {
  const ordered = [noopRow, ...(context.reverse ? [...rows].reverse() : rows)];
  for (const row of ordered) assertReturnsResult(row);
  const results: RowResult[] = [];
  for (const row of ordered) {
    row.before?.();
    const stats = await measureFn(row.fn, context.minCpuTimeMs, `${row.key} ${row.label}`);
    results.push({ key: row.key, label: row.label, role: row.role, stats });
  }
  return results;
}

/** The A/A control: the baseline's own operation, measured again as if it were another row (with its own loop). */
export function controlOf(baseline: RowSpec): RowSpec {
  const { fn } = baseline;
  return { ...baseline, key: 'control', label: `${baseline.label} (A/A)`, role: 'control', fn: () => fn() };
}

/**
 * The reference every cache is held to: a real mutable cache, `h.v ?? miss()`. The field is written twice with
 * different values, so the JIT treats it as mutable and loads it on every call; a closure over a constant string
 * would be folded away and measure the empty loop.
 */
export function mutableCacheRow(miss: () => string): RowSpec & { readonly cache: { v: string | undefined } } {
  const cache: { v: string | undefined } = { v: undefined };
  cache.v = '';
  cache.v = miss(); // a second write, of another value
  const refill = () => {
    cache.v = miss();
    return cache.v;
  };
  const read = () => cache.v ?? refill();
  return { key: 'mutable-cache', label: 'mutable cache (h.v ?? miss())', role: 'reference', fn: read, cache };
}

/** A named check: passes when `actual === expected`. */
export function same(name: string, actual: unknown, expected: unknown) {
  const ok = actual === expected;
  return ok
    ? { name, ok }
    : { name, ok, detail: `got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}` };
}

/**
 * The smallest step of the clock mitata reads (Bun.nanoseconds, else performance.now), in nanoseconds. Over enough
 * passes for the loop to be compiled: 200 passes in cold code gave 140-230 ns on Node, whose clock steps in ~40.
 */
export function timerResolutionNs(): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 20_000; i++) {
    const start = clock();
    let next = clock();
    while (next === start) next = clock();
    smallest = Math.min(smallest, next - start);
  }
  return smallest;
}

/**
 * Single operations timed one by one (each with its own clock reads, as `CompiledRow.block(1)` times one call) as a
 * Measurement, with mitata's percentiles (the sorted sample at ⌊q · (n − 1)⌋): for a row whose every operation needs
 * its own setup, as worker-after-chdir's one read after each chdir. One operation per sample.
 */
export function measureEach(samplesNs: readonly number[]): Measurement {
  if (samplesNs.length === 0) throw new Error('cwdkit-bench: measureEach needs at least one sample');
  const sorted = [...samplesNs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))] as number;
  return {
    p50: at(0.5),
    min: sorted[0] as number,
    p99: at(0.99),
    avg: sorted.reduce((sum, ns) => sum + ns, 0) / sorted.length,
    samples: sorted.length,
    opsPerSample: 1,
  };
}
