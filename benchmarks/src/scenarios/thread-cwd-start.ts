// What thread-cwd's setup entry costs a fresh worker (issue #28 item 5): workers started one at a time in this
// process, the rows in turns (an empty worker, one that requires the entry and never chdirs, one that also makes its
// first chdir, where Node's entry installs), each timed from `new Worker` to its first message. One worker per run, so
// the rows are read as the whole-program rows are: time ÷ an empty worker's, and what the entry adds.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runtime } from '@cwdkit/core';
import { tempDirs } from '../fixtures.js';
import { measureEach, same } from '../measure.js';
import type { Check, RowResult, RowRole, Scenario } from '../scenario.js';

/**
 * The worker's whole code: require the entry (or nothing), chdir if asked, and say where it is and whether anything of
 * thread-cwd is loaded in it (an empty worker must have nothing: the main thread loaded the strategy to probe it).
 */
const body = (entry: string | undefined, chdirTo: string | undefined) => `
${entry ? `require(${JSON.stringify(entry)});` : ''}
${chdirTo ? `process.chdir(${JSON.stringify(chdirTo)});` : ''}
const loaded = Object.keys(require.cache).some((file) => file.includes('thread-cwd'));
require('node:worker_threads').parentPort.postMessage({ cwd: process.cwd(), loaded });`;

interface StartRow {
  readonly key: string;
  readonly label: string;
  readonly role: RowRole;
  readonly code: string;
  readonly env?: NodeJS.ProcessEnv;
  /** What the worker must say: where it is, and whether thread-cwd is loaded in it. */
  readonly expected: { readonly cwd: string; readonly loaded: boolean };
}

/** How long one worker may take to report: far above a start (~20-100 ms here), so only a worker that hangs meets it. */
const WORKER_TIMEOUT_MS = 60_000;

/** One worker of the row, from `new Worker` to its message: ns, and what it said. */
async function startOne(row: StartRow): Promise<{ ns: number; said: unknown }> {
  const started = performance.now();
  const worker = new Worker(row.code, { eval: true, ...(row.env ? { env: row.env } : {}) });
  try {
    // One promise, settled by the first of these: what comes after (the exit that terminate() causes) is ignored.
    const said = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${row.label}: the worker did not report within ${WORKER_TIMEOUT_MS} ms`)),
        WORKER_TIMEOUT_MS,
      );
      const settle =
        <T>(how: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          how(value);
        };
      worker.once('message', settle(resolve));
      worker.once('error', settle(reject));
      // A worker that ends without a word (its entry called process.exit) would leave the run waiting forever.
      worker.once(
        'exit',
        settle((code: number) =>
          reject(new Error(`${row.label}: the worker exited (code ${code}) before it reported`)),
        ),
      );
    });
    return { ns: (performance.now() - started) * 1e6, said };
  } finally {
    await worker.terminate();
  }
}

/** The scenario, requiring `entry` in the workers (tests hand it a file that is not thread-cwd's); by default the
 * setup entry of the strategy's own package. */
export function threadCwdStartScenario(entry?: string): Scenario {
  return {
    name: 'thread-cwd-start',
    description:
      "a fresh worker with thread-cwd's setup entry (never chdir'd, and through its first chdir), against an empty worker; one worker per run, started one at a time, wall time from new Worker to its first message",
    claim: 'issue #28: installing thread-cwd costs a fresh worker at most 1 ms over an empty one in kernel mode',
    strategies: ['thread-cwd'],
    target: { extraMs: 1, extraMiB: 1 },
    aaRetries: 0,
    async run(context) {
      const quick = context.minCpuTimeMs < 20;
      const { root, remove } = tempDirs(0);
      try {
        const setup = entry ?? createRequire(fileURLToPath(context.strategy.url)).resolve('@cwdkit/thread-cwd/setup');
        const processCwd = process.cwd();
        const at = (cwd: string, loaded: boolean) => ({ cwd, loaded });
        const rows: StartRow[] = [
          {
            key: 'baseline',
            label: 'an empty worker',
            role: 'baseline',
            code: body(undefined, undefined),
            expected: at(processCwd, false),
          },
          {
            key: 'provider',
            label: "the setup entry, never chdir'd",
            role: 'subject',
            code: body(setup, undefined),
            expected: at(processCwd, true),
          },
          {
            key: 'first-chdir',
            label: 'the setup entry and its first chdir',
            role: 'subject',
            code: body(setup, root),
            expected: at(root, true),
          },
          // Handles mode installs at the start (Node only: Bun and Deno have kernel mode alone).
          ...(runtime === 'node'
            ? [
                {
                  key: 'handles',
                  label: "the setup entry in handles mode (CWDKIT_THREAD_CWD_KERNEL=0), never chdir'd",
                  // Shown beside the others, not judged: the target is kernel mode's.
                  role: 'comparison' as const,
                  code: body(setup, undefined),
                  env: { ...process.env, CWDKIT_THREAD_CWD_KERNEL: '0' },
                  expected: at(processCwd, true),
                },
              ]
            : []),
          {
            key: 'control',
            label: 'an empty worker (A/A)',
            role: 'control',
            code: body(undefined, undefined),
            expected: at(processCwd, false),
          },
        ];
        // One unmeasured worker of each (the file cache, the runtime's own first-use costs), checked.
        const checks: Check[] = [];
        for (const row of rows) {
          const { said } = await startOne(row);
          checks.push(
            same(
              `${row.label}: the worker's cwd, and thread-cwd loaded`,
              JSON.stringify(said),
              JSON.stringify(row.expected),
            ),
          );
        }
        checks.push(same("the main thread's cwd did not move", process.cwd(), processCwd));
        const runs = quick ? 2 : 10;
        const ordered = context.reverse ? [...rows].reverse() : rows;
        const times = new Map<StartRow, number[]>(rows.map((row) => [row, []]));
        for (let run = 0; run < runs; run++) {
          for (const row of ordered) times.get(row)?.push((await startOne(row)).ns);
        }
        const results: RowResult[] = rows.map((row) => ({
          key: row.key,
          label: row.label,
          role: row.role,
          stats: measureEach(times.get(row) ?? []),
          processes: { runs },
        }));
        return { rows: results, checks };
      } finally {
        remove();
      }
    },
  };
}

export const threadCwdStart: Scenario = threadCwdStartScenario();
