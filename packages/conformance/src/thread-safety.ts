// The thread-safety tests for a strategy that shares memory with its workers: the stale-read storm, a worker that
// started before the strategy loaded, a worker polling in a tight loop, and workers terminated mid-read. The scripts
// in ./thread-safety/ run in child processes of each runtime, so each test starts from a process no earlier test has
// touched.
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnRuntime } from './harness.js';
import { findRuntime, type OtherRuntime, runtimeLeftOut } from './runtimes.js';
import { measureStaleReads } from './stale-reads.js';

export interface ThreadSafetyOptions {
  /** The key the strategy gives `sharedMemory()` from @cwdkit/core: tells which workers found its buffer. */
  sharedMemoryKey: string;
  /**
   * Whether the cold-worker test ends with its stale-read storm (default true). Turn it off only where the strategy's
   * cold workers run core's `coldWorkerCwd()` unchanged and another strategy's tests storm that on every runtime: the
   * rest of the cold-worker test (no shared memory, `cold`, 100 chdirs, ENOENT after `invalidate()`) still runs.
   */
  coldStorm?: boolean;
}

type Runtime = 'node' | OtherRuntime;
const script = (name: string) => fileURLToPath(new URL(`./thread-safety/${name}.js`, import.meta.url));

/** The runtime's binary, or undefined when its npm package is not installed in the project. */
function binaryOf(runtime: Runtime): string | undefined {
  return runtime === 'node' ? process.execPath : findRuntime(runtime);
}

/** Runs a script in a fresh child; resolves with its last output line parsed, rejects if it fails or overruns. */
async function runScript(runtime: Runtime, args: string[], deadlineMs: number): Promise<unknown> {
  const [script, ...rest] = args as [string, ...string[]];
  const { status, output } = await spawnRuntime(runtime, script, rest, { timeoutMs: deadlineMs });
  if (status !== 0) throw new Error(`exited with ${status}:\n${output}`);
  return JSON.parse(output.trim().split('\n').at(-1) as string);
}

/**
 * A test per runtime; the others are skipped, with the reason in the title, when their npm package is missing or
 * CWDKIT_CONFORMANCE_RUNTIMES leaves them out.
 */
function eachRuntime(
  title: string,
  test: (runtime: Runtime) => Promise<void>,
  timeout?: number,
  skipDeno?: string,
  runtimes: readonly Runtime[] = ['node', 'bun', 'deno'],
) {
  for (const runtime of runtimes) {
    const reason =
      binaryOf(runtime) === undefined
        ? `the ${runtime} npm package is not installed`
        : runtime === 'node'
          ? undefined
          : (runtimeLeftOut(runtime) ?? (runtime === 'deno' ? skipDeno : undefined));
    it.skipIf(reason !== undefined)(
      `${title} (${runtime})${reason ? ` [${reason}]` : ''}`,
      () => test(runtime),
      timeout,
    );
  }
}

/**
 * The thread-safety tests as vitest tests, for a worker-coherent strategy that shares memory with its workers.
 * `module` is imported by the scripts and their workers, so it must resolve to built JavaScript from this package.
 */
export function describeThreadSafety(module: string, { sharedMemoryKey, coldStorm = true }: ThreadSafetyOptions): void {
  describe(`thread safety: ${module}`, () => {
    // ≥ 10,000 chdirs over 64 directories, 2 readers, ≥ 1M checked reads. Tight, then with a pause before each chdir,
    // so that every published state lasts long enough for a stale cache to be read. (The runtime's own cwd in the same
    // storm is the bench's worker-read scenario, which counts its stale reads with the same rule: not measured here.)
    const storm = { workers: 2, chdirs: 10_000, directories: 64, minReads: 1_050_000, maxMs: 60_000 };
    // The storm, stopped by maxMs at worst, plus its setup: the budget covers it with room (a busy machine has taken up
    // to 3 minutes), so a slow machine never abandons a storm that is still changing directory.
    const stormBudget = 3 * storm.maxMs;
    it.each([
      ['tight', 0],
      ['paused 20 µs', 20],
    ])(
      'no stale read in ≥ 1M checked reads, %s storm',
      async (label, pauseUs) => {
        const ours = await measureStaleReads({ ...storm, pauseUs, module });
        const { stale, checked, reads, chdirs, ms } = ours;
        console.log(
          `${module}, ${label}: ${stale} stale in ${checked} checked reads (${reads} reads, ${chdirs} chdirs, ${ms | 0} ms)`,
        );
        expect(ours.chdirs).toBeGreaterThanOrEqual(10_000);
        expect(ours.checked).toBeGreaterThanOrEqual(1_000_000);
        expect(ours.stale, JSON.stringify(ours.examples)).toBe(0);
      },
      stormBudget,
    );

    eachRuntime(
      'a worker created before the package loaded sees every chdir',
      async (runtime) => {
        const result = await runScript(runtime, [script('early-worker'), module, sharedMemoryKey], 100_000);
        expect(result).toEqual({ chdirs: 200, sharedMemoryFound: { early: false, late: true } });
      },
      120_000,
    );

    eachRuntime(
      `a cold worker (its main thread never loads the strategy) sees every chdir, ENOENT after invalidate() once its cwd is deleted${coldStorm ? ', no stale read in a storm' : " (the storm: core's coldWorkerCwd, stormed by another strategy's tests)"}`,
      async (runtime) => {
        const args = [script('cold-worker'), module, sharedMemoryKey, ...(coldStorm ? [] : ['no-storm'])];
        const result = (await runScript(runtime, args, 170_000)) as {
          shared: boolean;
          cold?: boolean;
          deleted: unknown;
          storm?: { stale: number; checked: number; chdirs: number; examples: unknown };
        };
        console.log(`${runtime}, cold: ${JSON.stringify(result)}`);
        expect(result.shared).toBe(false);
        expect(result.cold ?? true).toBe(true); // a strategy that states capabilities.cold says true here
        expect(result.deleted).toMatchObject({ afterInvalidate: 'ENOENT' });
        if (coldStorm) {
          expect(result.storm?.chdirs).toBeGreaterThanOrEqual(10_000);
          expect(result.storm?.checked).toBeGreaterThanOrEqual(1_000_000);
          expect(result.storm?.stale, JSON.stringify(result.storm?.examples)).toBe(0);
        } else {
          expect(result.storm).toBeUndefined();
        }
      },
      180_000,
      undefined,
      // Where the runtime's own worker cwd is coherent (Node 24.15+, Deno) a cold worker may use it: each major.
      ['node', 'node22', 'node24', 'node26', 'bun', 'deno'],
    );

    eachRuntime(
      'a worker polling cwd() in a tight loop sees a main-thread chdir',
      async (runtime) => {
        expect(await runScript(runtime, [script('poll'), module], 50_000)).toEqual({ seen: true });
      },
      60_000,
    );

    eachRuntime(
      '120 workers terminated mid-read leave nothing held, and the process exits on its own',
      async (runtime) => {
        const result = (await runScript(runtime, [script('fault'), module, '120'], 170_000)) as {
          terminated: number;
          growthMb: number;
        };
        console.log(`${runtime}: ${JSON.stringify(result)}`);
        expect(result.terminated).toBeGreaterThanOrEqual(100);
        expect(result.growthMb).toBeLessThan(32);
      },
      180_000,
      // Deno 2.9's worker_threads terminate() leaves a busy worker running (measured: a terminated `for (;;) {}`
      // keeps burning a core), so there is nothing to kill mid-read there.
      "Deno's worker_threads terminate() does not stop a busy worker",
    );
  });
}
