import process from 'node:process';
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
 * On V8, a full collection after the warm-ups, before any sample, so that their garbage does not start a major GC in
 * the middle of the samples (when mitata timed the rows, with an 8 MiB sample array each, the last row of a process
 * ran 2-5× slower in phases without it). Not on JSC: its full collection hands pages back to the OS, and the row then
 * faults them in again (in this VM a first touch costs ~15 µs: Bun's join ran at 250 ns a call instead of 42).
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

/** Where consumed results go: a property store the JIT cannot drop (as mitata's do_not_optimize). */
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

/** A row compiled for measuring: its own block loop, from source no other row shares. */
export interface CompiledRow {
  readonly id: number;
  /** The row's result is a rope that its loop flattens. */
  readonly flattens: boolean;
  /** `n` calls in a loop of this row's own, one call per pass, each result consumed; returns the elapsed ns. */
  readonly block: (n: number) => number;
}

let rowsCompiled = 0;

/**
 * Compiles a row's loop from a source text unique in this process. Engines share what they learn about a call site
 * among functions built from one source (JSC's profile of a `new Function` body, V8's feedback of one closure site):
 * a loop shared by every row turns the call polymorphic, and later rows pay for it (trap 8). One call per pass, never
 * unrolled: unrolled copies let V8 share loads between calls (a 1.9 ns call read as 0.47).
 */
export function compileRow(fn: () => unknown, name: string): CompiledRow {
  const id = ++rowsCompiled;
  const tag = `${id}: ${name.replace(/\*\//g, '* /')}`;
  const { code, flattens } = consumer(fn());
  const pass = `${barrier ? 'barrier(); ' : ''}let v = fn(); ${code}`;
  const source = `/* cwdkit-bench row ${tag} */
    return function block${id}(n) {
      const start = clock();
      for (let i = 0; i < n; i++) { ${pass} }
      return clock() - start;
    };`;
  const block = new Function('fn', 'sink', 'clock', 'barrier', source)(fn, sink, clock, barrier) as (
    n: number,
  ) => number;
  return { id, flattens, block };
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

/**
 * How long one row runs before the next row's turn. The machine's speed moves under a row: in this VM a process ran
 * path.resolve at 245 ns a call on one vCPU and 490 on the other in the same minute, and a row measured again less
 * than a second later in the same process read 447 then 242 ns. Rows measured one after another, each for its whole
 * budget, took such a shift for a difference between them; in turns of a millisecond the rows share the machine's
 * spells.
 */
export const TURN_NS = 1_000_000;

/** A row being measured: its compiled loop, calls per sample, and its samples so far (ns per call). */
interface Sampling {
  readonly before?: () => void;
  readonly row: CompiledRow;
  readonly batch: number;
  readonly samples: number[];
  /** ns spent in samples so far: what the budget counts. */
  spent: number;
  turns: number;
}

/** Compiles and warms a row, and sizes its samples: as many calls as make SAMPLE_NS, at most 4096. */
function prepare(spec: Pick<RowSpec, 'fn' | 'before'>, minCpuTimeMs: number, name: string): Sampling {
  spec.before?.();
  const row = compileRow(spec.fn, name);
  const cost = warmUp(row, Math.min(4 * minCpuTimeMs, 100) * 1e6);
  const batch = Math.max(1, Math.min(4096, 2 ** Math.floor(Math.log2(SAMPLE_NS / Math.max(cost, 0.01)))));
  return { ...(spec.before ? { before: spec.before } : {}), row, batch, samples: [], spent: 0, turns: 0 };
}

/** One turn of a row: samples until TURN_NS has passed (at least one); untimed when `keep` is false. */
function turn(sampling: Sampling, keep = true): void {
  sampling.before?.();
  const { row, batch, samples } = sampling;
  const end = clock() + TURN_NS;
  do {
    const ns = row.block(batch);
    if (keep) {
      samples.push(ns / batch);
      sampling.spent += ns;
    }
  } while (clock() < end);
  if (keep) sampling.turns++;
}

/** At least this many samples per row, whatever the budget (mitata's minimum, which the engine used before). */
const MIN_SAMPLES = 12;

/**
 * At least this many turns per row, whatever the budget: a preempted sample can spend a row's budget in one turn on a
 * busy machine, and a row measured in one turn is measured back to back again.
 */
export const MIN_TURNS = 4;

/**
 * Measures rows in turns (TURN_NS each, the order reversed every other round) until each has spent its budget in
 * samples (and taken MIN_TURNS turns), so that a slow spell of the machine falls on every row alike. Without
 * `interleave` each row is warmed and takes all its turns before the next row is warmed (rows whose `before` changes
 * the world, as install-resolve's install and uninstall: a swap of path.resolve between a row's warm-up and its samples
 * left it measured at 1.3-1.6x in 3 of 10 processes instead of 3.7x).
 */
function sample(
  rows: readonly { spec: Pick<RowSpec, 'fn' | 'before'>; name: string }[],
  minCpuTimeMs: number,
  interleave: boolean,
): Measurement[] {
  const budget = minCpuTimeMs * 1e6;
  const done = (s: Sampling) => s.spent >= budget && s.samples.length >= MIN_SAMPLES && s.turns >= MIN_TURNS;
  const prepared = (row: (typeof rows)[number]) => prepare(row.spec, minCpuTimeMs, row.name);
  if (!interleave) {
    return rows.map((row) => {
      const s = prepared(row);
      turn(s, false);
      if (collect) collect();
      while (!done(s)) turn(s);
      return statsOf(s.samples, s.batch);
    });
  }
  const samplings = rows.map(prepared);
  // One untimed turn each first: a row's warm-up may have moved what another row's code was optimized for.
  for (const s of samplings) turn(s, false);
  if (collect) collect();
  for (let round = 0; !samplings.every(done); round++) {
    for (const s of round % 2 === 0 ? samplings : [...samplings].reverse()) if (!done(s)) turn(s);
  }
  return samplings.map((s) => statsOf(s.samples, s.batch));
}

/** One operation, measured alone (its turns back to back). The result of `fn` is consumed. */
export async function measureFn(fn: () => unknown, minCpuTimeMs: number, name = 'row'): Promise<Measurement> {
  return sample([{ spec: { fn }, name }], minCpuTimeMs, false)[0] as Measurement;
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
 * Measures the no-op and the rows in turns (see `sample`): in the given order, or the opposite on odd rounds (the
 * first turn's order, and the order of the results). List the baseline first and the control last. `interleave:
 * false` warms and measures one row after the other, for rows whose `before` changes what the other rows run against.
 */
export async function measureRows(
  rows: readonly RowSpec[],
  context: ScenarioContext,
  { interleave = true }: { readonly interleave?: boolean } = {},
): Promise<RowResult[]> {
  const ordered = [noopRow, ...(context.reverse ? [...rows].reverse() : rows)];
  for (const row of ordered) assertReturnsResult(row);
  const named = ordered.map((row) => ({ spec: row, name: `${row.key} ${row.label}` }));
  const stats = sample(named, context.minCpuTimeMs, interleave);
  return ordered.map((row, i) => ({ key: row.key, label: row.label, role: row.role, stats: stats[i] as Measurement }));
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
 * The smallest step of the clock the engine reads (Bun.nanoseconds, else performance.now), in nanoseconds. Over enough
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
 * A row's samples (ns per call, `opsPerSample` calls each) as a Measurement: the sorted sample at ⌊q · (n − 1)⌋ (the
 * percentiles mitata reported when it timed the rows).
 */
export function statsOf(samplesNs: readonly number[], opsPerSample: number): Measurement {
  if (samplesNs.length === 0) throw new Error('cwdkit-bench: a measurement needs at least one sample');
  const sorted = [...samplesNs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))] as number;
  return {
    p50: at(0.5),
    min: sorted[0] as number,
    p99: at(0.99),
    avg: sorted.reduce((sum, ns) => sum + ns, 0) / sorted.length,
    samples: sorted.length,
    opsPerSample,
  };
}

/**
 * Single operations timed one by one (each with its own clock reads, as `CompiledRow.block(1)` times one call): for a
 * row whose every operation needs its own setup, as worker-after-chdir's one read after each chdir.
 */
export function measureEach(samplesNs: readonly number[]): Measurement {
  return statsOf(samplesNs, 1);
}
