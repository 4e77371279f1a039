// A worker thread of the thread-cwd scenarios: it sets itself up as asked (no thread-cwd, installed, installed and
// chdir'd, or another strategy installed: the fair baselines of the installed process.cwd()), then measures the rows the main thread names, one message each, so that rows owned by different workers
// of one process can alternate (scenarios/thread-cwd.ts).
import fs from 'node:fs';
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import type { StrategyDefinition } from '@cwdkit/core';
import { install } from 'cwdkit';
import { assertReturnsResult, controlOf, measureFn, mutableCacheRow, noopRow, type RowSpec } from './measure.js';

/** `other`: another strategy installed (ThreadCwdRowsData.strategy names it), never chdir'd. */
export type Setup = 'plain' | 'installed' | 'chdir' | 'other';

export interface ThreadCwdRowsData {
  /** The strategy module's URL (LoadedStrategy.url; for `other`, the other strategy's). */
  readonly strategy: string;
  readonly setup: Setup;
  /** The key prefix of an `other` worker's rows (e.g. 'sab-atomics'): keys stay unique across the workers. */
  readonly name?: string;
  /** The directory a 'chdir' worker changes to; `relative` names a file from there, `absolute` the same file. */
  readonly dir: string;
  readonly relative: string;
  readonly absolute: string;
}

/** What the worker says once set up: its rows (without their functions), what it sees, or why it cannot run. */
export interface ThreadCwdReady {
  readonly rows?: { key: string; label: string; role: RowSpec['role'] }[];
  readonly seen?: { cwd: string; processCwd: string; relativeIno?: number; absoluteIno?: number };
  readonly notApplicable?: string;
  readonly error?: string;
}

const data = workerData as ThreadCwdRowsData;
const port = parentPort as NonNullable<typeof parentPort>;

function rowsOf(cwd: () => string, taken: () => string): RowSpec[] {
  // The runtime's own, taken before install(): in a chdir'd worker it answers the process cwd, as a worker does today.
  const own = process.cwd.bind(process);
  const { absolute, relative } = data; // locals, so that both stat rows load their path alike
  const statAbsolute: RowSpec = {
    key: data.setup === 'plain' ? 'baseline' : data.setup === 'installed' ? 'installed' : 'absolute',
    label:
      data.setup === 'plain'
        ? 'fs.statSync(absolute), a worker without thread-cwd'
        : data.setup === 'installed'
          ? 'fs.statSync(absolute), installed, never chdir’d'
          : 'fs.statSync(absolute), chdir’d',
    role: data.setup === 'plain' ? 'baseline' : 'subject',
    fn: () => fs.statSync(absolute),
  };
  // process.cwd() as code calls it: a property load from `process` (a dictionary-mode object, ~8-11 ns on V8) and the
  // call. The chdir'd worker's installed row pays that load too, so these are its fair baselines.
  const processCwd = (label: string, key = 'process-cwd'): RowSpec => ({
    key,
    label,
    role: 'comparison',
    fn: () => process.cwd(),
  });
  if (data.setup === 'plain') {
    return [
      noopRow,
      statAbsolute,
      controlOf(statAbsolute),
      processCwd("process.cwd(), a worker without cwdkit (the runtime's own)", 'bare-process-cwd'),
    ];
  }
  if (data.setup === 'other') {
    return [processCwd(`process.cwd() installed (${data.name}), never chdir’d`, `${data.name}-process-cwd`)];
  }
  if (data.setup === 'installed') return [statAbsolute];
  const baseline: RowSpec = {
    key: 'baseline',
    label: "the worker's own process.cwd() (the process cwd)",
    role: 'baseline',
    fn: own,
  };
  return [
    noopRow,
    baseline,
    controlOf(baseline),
    mutableCacheRow(cwd),
    { key: 'provider', label: 'provider.cwd(), chdir’d', role: 'subject', fn: cwd },
    { ...processCwd('process.cwd() installed, chdir’d'), role: 'subject' },
    // The installed function taken once and called: the wrapper and provider.cwd() without the load from `process`.
    { key: 'process-cwd-taken', label: 'const f = process.cwd; f(), chdir’d', role: 'subject', fn: () => taken() },
    statAbsolute,
    {
      key: 'relative',
      label: `fs.statSync('${relative}'), chdir’d`,
      role: 'subject',
      fn: () => fs.statSync(relative),
    },
  ];
}

try {
  const definition = ((await import(data.strategy)) as { default: StrategyDefinition<unknown> }).default;
  const provider = data.setup === 'plain' ? undefined : definition.create();
  let notApplicable: string | undefined;
  try {
    if (provider) install(provider);
  } catch (error) {
    // Bun and Deno: thread-cwd's install() in a worker refuses rather than cover half (its README).
    if ((error as { code?: string }).code !== 'ERR_CWDKIT_UNSUPPORTED_RUNTIME') throw error;
    notApplicable = (error as Error).message;
  }
  if (notApplicable !== undefined) {
    port.postMessage({ notApplicable } satisfies ThreadCwdReady);
  } else {
    const installed = process.cwd; // after install(): the replacement
    const rows = rowsOf(
      () => (provider as NonNullable<typeof provider>).cwd(),
      () => installed(),
    );
    const own = process.cwd();
    if (data.setup === 'chdir') process.chdir(data.dir);
    const byKey = new Map(rows.map((row) => [row.key, row]));
    for (const row of rows) assertReturnsResult(row);
    port.on('message', async ({ key, minCpuTimeMs }: { key: string; minCpuTimeMs: number }) => {
      try {
        const row = byKey.get(key) as RowSpec;
        const stats = await measureFn(row.fn, minCpuTimeMs, `${row.key} ${row.label}`);
        port.postMessage({ stats });
      } catch (error) {
        port.postMessage({ error: String((error as Error)?.stack ?? error) });
      }
    });
    const ino = (file: string) => fs.statSync(file).ino;
    port.postMessage({
      rows: rows.map(({ key, label, role }) => ({ key, label, role })),
      seen: {
        cwd: process.cwd(),
        processCwd: own,
        ...(data.setup === 'chdir' ? { relativeIno: ino(data.relative), absoluteIno: ino(data.absolute) } : {}),
      },
    } satisfies ThreadCwdReady);
  }
} catch (error) {
  port.postMessage({ error: String((error as Error)?.stack ?? error) } satisfies ThreadCwdReady);
}
