// Node's worker_threads wraps process.chdir when it loads, to bump the counter that every worker's cached
// process.cwd() follows; a cold worker on Node 24.15+ and 26 trusts that cache (core's coldWorkerCwd). Differential:
// in each order of core, worker_threads, install(), graceful-fs and the cwdkit/register flag, a main-thread chdir made
// through a provider or through process.chdir must leave a worker that started before it answering exactly what it
// answers after the runtime's own process.chdir with nothing of cwdkit loaded: real workers, real chdir, real
// graceful-fs (fixtures/worker-counter.mjs). Node 22 too: its cold workers read the OS, but its workers' own
// process.cwd() follows the same counter. Node 24 on every run, Node 22 and 26 in npm run test:release (majorRuns).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dist, fixtures, majorRuns, packageRoot, run, scratchDir } from './helpers.js';

const script = path.join(fixtures, 'worker-counter.mjs');
const register = path.join(dist, 'register.mjs');
const nodes = ([22, 24, 26] as const)
  .filter(majorRuns)
  .map((major) => [major, path.join(packageRoot, `../../node_modules/node${major}/bin/node`)] as const);

let scratch: string;
beforeEach(() => {
  scratch = scratchDir('cwdkit-counter-');
});
afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The fixture's report, its paths relative to its own start directory. */
async function report(
  node: string,
  flags: string[],
  steps: string,
  way: string,
  strategy: string,
  within = scratch,
): Promise<object> {
  const start = fs.mkdtempSync(path.join(within, 'run-'));
  const env = { ...process.env, CWDKIT_STRATEGY: strategy, NODE_OPTIONS: '' };
  const result = await run(node, [...flags, script, steps, way], { cwd: start, env });
  if (result.stderr !== '' || result.stdout === '') throw new Error(`${steps} ${way}: ${result.stderr}`);
  const { cold: _, ...answer } = JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
  return JSON.parse(JSON.stringify(answer).replaceAll(JSON.stringify(start).slice(1, -1), '<start>'));
}

/**
 * The reference (process.chdir with nothing of cwdkit loaded) depends only on the Node and the strategy: one run of
 * each, shared by every case that compares with it (its paths are relative to each run's own start directory).
 */
const references = new Map<string, Promise<object>>();
function reference(node: string, strategy: string): Promise<object> {
  const key = `${node} ${strategy}`;
  if (!references.has(key)) {
    const scratchOfItsOwn = scratchDir('cwdkit-counter-reference-');
    const answer = report(node, [], 'workers', 'process', strategy, scratchOfItsOwn).finally(() =>
      fs.rmSync(scratchOfItsOwn, { recursive: true, force: true }),
    );
    references.set(key, answer);
  }
  return references.get(key) as Promise<object>;
}

// Each order as its steps; then under the flag (where process.chdir is the register stub until the first chdir).
const steps = [
  'core',
  'core,workers',
  'workers,core',
  'core,install',
  'core,install,workers',
  'core,workers,install',
  'workers,core,install',
  'core,graceful,workers',
  'core,workers,graceful',
  'core,workers,graceful,install',
  'core,install,graceful,workers',
  'core,install,workers,graceful',
  'core,graceful,install,workers',
  'core,delegate,workers',
  'core,install,workers,uninstall',
  'core,install,graceful,workers,uninstall',
];
type Case = [label: string, order: string, flags: string[], strategy: string];
const cases: Case[] = [
  ...steps.map((order): Case => [order, order, [], 'sab-atomics']),
  // naive loads no worker_threads (sab-atomics creates its shared memory when it loads): Node's wrapper then goes
  // over install()'s process.chdir, and uninstall() must not drop it.
  ...['core,install,workers', 'core,install,workers,uninstall', 'core,install,graceful,workers,uninstall'].map(
    (order): Case => [`naive, ${order}`, order, [], 'naive'],
  ),
  ...['workers,core', 'core,workers', 'graceful,workers,core'].map(
    (order): Case => [`--import cwdkit/register, ${order}`, order, ['--import', register], 'sab-atomics'],
  ),
];

describe("a main-thread chdir moves Node's worker cwd counter as process.chdir does", { timeout: 120_000 }, () => {
  it.each(nodes)(
    'the reference (process.chdir, nothing of cwdkit) is seen by a worker (node%i)',
    async (major, node) => {
      expect(await reference(node, 'sab-atomics'), `node ${major}`).toEqual({
        before: true,
        failure: { code: 'ENOENT', cwd: '<start>' },
        os: '<start>/sub',
        main: '<start>/sub',
        worker: { processCwd: '<start>/sub', provider: '<start>/sub' },
      });
    },
  );

  it.each(
    cases.flatMap(([label, ...rest]) => nodes.map(([major, node]) => [label, `node${major}`, node, ...rest] as const)),
  )(
    "%s: through a provider (cwdkit's or the strategy's) and through process.chdir, as the runtime (%s)",
    async (_, __, node, order, flags, strategy) => {
      const expected = await reference(node, strategy);
      // After uninstall(), a plain process.chdir is one behind the provider's back (its worker's answer may wait for
      // invalidate()): only the providers' own chdirs are compared there.
      for (const way of ['provider', 'strategy', ...(order.endsWith('uninstall') ? [] : ['process'])]) {
        expect({ way, node, ...(await report(node, flags, order, way, strategy)) }).toEqual({
          way,
          node,
          ...expected,
        });
      }
    },
  );
});
