// What the two thread-cwd scenarios share: workers set up as each row needs (thread-cwd-rows.ts), and the rows of one
// process measured in one order across them, reversed on odd rounds, so that every ratio is taken inside one process.
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { readOsCwd, type StrategyDefinition } from '@cwdkit/core';
import { tempDirs } from '../fixtures.js';
import { same } from '../measure.js';
import type { Check, Measurement, RowResult, ScenarioContext, ScenarioResult } from '../scenario.js';
import type { Setup, ThreadCwdReady, ThreadCwdRowsData } from '../thread-cwd-rows.js';

/** The file the rows stat, in the chdir'd worker's directory: a name the process cwd is unlikely to hold. */
export const FILE = 'thread-cwd-bench-file';

/**
 * Which worker measures a row: one set up as named, or one with another strategy installed (by package name,
 * @cwdkit/<other>), never chdir'd.
 */
export type Place = Exclude<Setup, 'other'> | { readonly other: string };

/** A row of the scenario: which worker measures it, by its key there. The no-op is measured by the first one listed. */
export type RowPlace = readonly [Place, string];

const placeName = (place: Place) => (typeof place === 'string' ? place : place.other);

/** Loads @cwdkit/<name> on this thread and keeps a provider of it open (closed with `open`); returns its URL. */
async function loadedHere(name: string, open: { close(): void }[]): Promise<string> {
  const url = import.meta.resolve(`@cwdkit/${name}`);
  const definition = ((await import(url)) as { default: StrategyDefinition<unknown> }).default;
  open.push(definition.create());
  return url;
}

/**
 * Starts a worker for each setup the rows name, checks what each sees, and measures the no-op and then the rows in
 * the order given (the baseline first, the control last), or the opposite order on odd rounds. `relative` names the
 * file the rows stat, relative to the chdir'd worker's directory (tests hand a slower path).
 */
export async function measureInWorkers(
  context: ScenarioContext,
  places: readonly RowPlace[],
  relative: string,
): Promise<ScenarioResult> {
  const { root, remove } = tempDirs(0);
  const dir = path.join(root, 'thread');
  const absolute = path.resolve(dir, relative);
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  fs.writeFileSync(absolute, 'thread-cwd bench\n');
  const mainBefore = readOsCwd();
  const setups = new Map(places.map(([place]) => [placeName(place), place]));
  const workers = new Map<string, Worker>();
  // Each other strategy is loaded here first, as an app's main thread would: a worker of sab-atomics whose main thread
  // never loaded it is a cold one, which answers with the runtime's own read instead of its cache.
  const mainProviders: { close(): void }[] = [];
  try {
    const ready = new Map<string, ThreadCwdReady>();
    for (const [setup, place] of setups) {
      const data: ThreadCwdRowsData =
        typeof place === 'string'
          ? { strategy: context.strategy.url, setup: place, dir, relative, absolute }
          : {
              strategy: await loadedHere(place.other, mainProviders),
              setup: 'other',
              name: place.other,
              dir,
              relative,
              absolute,
            };
      const worker = new Worker(new URL('./thread-cwd-rows.js', import.meta.url), { workerData: data });
      workers.set(setup, worker);
      const [reply] = (await once(worker, 'message')) as [ThreadCwdReady];
      if (reply.error !== undefined) throw new Error(`the ${setup} worker failed: ${reply.error}`);
      // Said in the report, runtime by runtime: not measured, and why (never a pass with nothing in it).
      if (reply.notApplicable !== undefined) return { rows: [], checks: [], notApplicable: reply.notApplicable };
      ready.set(setup, reply);
    }
    const checks: Check[] = [];
    for (const [setup, reply] of ready) {
      const seen = reply.seen as NonNullable<ThreadCwdReady['seen']>;
      if (setup === 'chdir') {
        checks.push(same("the chdir'd worker's process.cwd() is its directory", seen.cwd, dir));
        checks.push(
          same(`stat('${relative}') there is the file stat(absolute) names`, seen.relativeIno, seen.absoluteIno),
        );
      } else {
        checks.push(same(`the ${setup} worker's cwd is the process cwd`, seen.cwd, seen.processCwd));
      }
    }
    checks.push(same("the main thread's cwd did not move", readOsCwd(), mainBefore));
    checks.push(same(`'${relative}' names nothing in the process cwd`, fs.existsSync(relative), false));
    const labels = new Map(
      [...ready].flatMap(([setup, reply]) => (reply.rows ?? []).map((row) => [`${setup}\u0000${row.key}`, row])),
    );
    const first = places[0] as RowPlace;
    const ordered: RowPlace[] = [[first[0], 'noop'], ...(context.reverse ? [...places].reverse() : places)];
    const rows: RowResult[] = [];
    for (const [place, key] of ordered) {
      const setup = placeName(place);
      const row = labels.get(`${setup}\u0000${key}`);
      if (!row) throw new Error(`the ${setup} worker has no row ${key}`);
      const worker = workers.get(setup) as Worker;
      worker.postMessage({ key, minCpuTimeMs: context.minCpuTimeMs });
      const [reply] = (await once(worker, 'message')) as [{ stats?: Measurement; error?: string }];
      if (reply.error !== undefined) throw new Error(`the ${setup} worker failed measuring ${key}: ${reply.error}`);
      rows.push({ key: row.key, label: row.label, role: row.role, stats: reply.stats as Measurement });
    }
    return { rows, checks };
  } finally {
    await Promise.all([...workers.values()].map((worker) => worker.terminate()));
    for (const provider of mainProviders) provider.close();
    remove();
  }
}
