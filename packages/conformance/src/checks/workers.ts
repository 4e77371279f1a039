// Real worker threads: coherence, chdir from a worker, and the stale-read storm.
import assert from 'node:assert/strict';
import path from 'node:path';
import { readOsCwd, runtime } from '@cwdkit/core';
import { runtimeView } from '../runtime-view.js';
import { measureStaleReads } from '../stale-reads.js';
import { type Check, CheckSkipped, workerCoherent } from './support.js';

/** How long a storm of the suite may wait for its readers: on a quiet machine a storm takes under a second. */
const STORM_MAX_MS = 30_000;

export const workersChecks: readonly Check[] = [
  {
    title: 'a worker sees a main-thread chdir',
    skip: workerCoherent,
    async run(context) {
      const provider = context.provider();
      const workers = [await context.worker(), await context.worker()];
      const dirs = [context.dir('w1'), context.dir('w2'), context.dir('w3')];
      for (let i = 0; i < 30; i++) {
        const target = dirs[i % dirs.length] as string;
        provider.chdir(target);
        for (const worker of workers) assert.equal(await worker.cwd(), target);
      }
    },
  },
  {
    title: 'chdir in a worker changes the process cwd',
    skip: (capabilities) =>
      !capabilities.chdirFromWorker
        ? 'chdirFromWorker is false'
        : capabilities.chdirScope === 'thread'
          ? "chdirScope is 'thread'"
          : undefined,
    async run(context) {
      const provider = context.provider();
      const [worker, other] = [await context.worker(), await context.worker()];
      for (const name of ['from-worker-1', 'from-worker-2']) {
        const target = context.dir(name);
        await worker.chdir(target);
        assert.equal(readOsCwd(), target);
        assert.equal(await worker.cwd(), target);
        // Runtime coherence on both threads: a worker's chdir must not leave a runtime cache behind anywhere.
        for (const [where, view] of [
          ['the worker', await worker.runtimeView()],
          ['the main thread', runtimeView()],
        ] as const) {
          assert.equal(view.processCwd, target, `${where}: process.cwd() after a worker chdir`);
          assert.equal(view.resolved, path.join(target, 'x'), `${where}: path.resolve after a worker chdir`);
        }
        if (provider.capabilities.workerCoherent) {
          assert.equal(provider.cwd(), target, 'the main thread sees a worker chdir');
          assert.equal(await other.cwd(), target, 'another worker sees a worker chdir');
        }
      }
    },
  },
  {
    title: "chdir in a worker changes only that worker's cwd (chdirScope 'thread')",
    skip: (capabilities) =>
      capabilities.chdirScope === 'thread' && capabilities.chdirFromWorker ? undefined : "chdirScope is not 'thread'",
    async run(context) {
      const provider = context.provider();
      const home = provider.cwd();
      const [worker, other] = [await context.worker(), await context.worker()];
      const [target, inner, moved] = [context.dir('own'), context.dir('own', 'inner'), context.dir('main-moved')];
      await worker.chdir(target);
      assert.equal(await worker.cwd(), target, 'the worker sees its own chdir');
      await worker.chdir('inner');
      assert.equal(await worker.cwd(), inner, "a relative chdir is relative to the worker's own cwd");
      await worker.chdir('..');
      assert.equal(await worker.cwd(), target, "chdir('..') is relative to the worker's own cwd");
      assert.equal(readOsCwd(), home, "a worker's chdir does not move the process");
      assert.equal(provider.cwd(), home, "the main thread does not see a worker's chdir");
      assert.equal(await other.cwd(), home, "another worker does not see a worker's chdir");
      // Runtime coherence: the worker's own runtime (not installed here) still agrees with the OS. That is the process
      // cwd where the strategy keeps the worker's cwd itself; on Deno the worker's own thread moves in the kernel (no
      // cover can reach Deno's own calls), so there the runtime says where the worker went.
      const view = await worker.runtimeView();
      const held = runtime === 'deno' ? target : home;
      assert.equal(view.os, held, "the OS's cwd of the worker's thread");
      assert.equal(view.processCwd, held, "the worker's runtime agrees with the OS");
      for (const [directory, code] of [
        ['missing', 'ENOENT'],
        [context.file('a-file'), 'ENOTDIR'],
      ] as const) {
        await assert.rejects(worker.chdir(directory), { code });
        assert.equal(await worker.cwd(), target, `a failed chdir (${code}) leaves the worker's cwd as it was`);
      }
      provider.chdir(moved);
      assert.equal(await worker.cwd(), target, "a worker that chdir'd keeps its own cwd when the main thread moves");
      if (provider.capabilities.workerCoherent) {
        assert.equal(await other.cwd(), moved, "a worker that never chdir'd follows the main thread");
      }
    },
  },
  {
    title: "chdir in a worker fails with the runtime's own error and changes nothing",
    skip: (capabilities) => (capabilities.chdirFromWorker ? 'chdirFromWorker is true' : undefined),
    async run(context) {
      const provider = context.provider();
      const before = provider.cwd();
      const worker = await context.worker();
      let refusal: unknown;
      await assert.rejects(worker.chdir(context.dir('refused')), (error: { code?: unknown }) => {
        assert.equal(typeof error.code, 'string', 'the refusal has a code');
        refusal = error.code;
        return true;
      });
      // One refusal for every argument: '' and an over-long path are refused, not answered ENOENT / ENAMETOOLONG.
      for (const directory of ['', `${context.scratch}/${'y'.repeat(5000)}`]) {
        await assert.rejects(worker.chdir(directory), { code: refusal });
      }
      assert.equal(readOsCwd(), before);
      assert.equal(provider.cwd(), before);
    },
  },
  {
    title: 'no stale reads while workers read under a storm of chdirs',
    skip: workerCoherent,
    // Two storms, each waiting for readers at most STORM_MAX_MS (then finishing its chdirs without waiting).
    budgetMs: 2 * STORM_MAX_MS + 90_000,
    async run(context) {
      // Tight, then with a pause before each chdir: in a tight storm a stale cache is replaced within microseconds and
      // rarely caught; paused, each published state lasts long enough for a reader to catch it (bump-before-chdir).
      for (const [storm, chdirs, pauseUs] of [
        ['tight', 2_000, 0],
        ['paused 20 µs', 1_000, 20],
      ] as const) {
        const result = await measureStaleReads({
          module: context.module,
          options: context.options,
          workers: 2,
          chdirs,
          directories: 16,
          pauseUs,
          maxMs: STORM_MAX_MS,
        });
        assert.ok(result.checked > 0, `${storm} storm: the readers made no checked read`);
        const found = `${storm} storm: ${result.stale} stale of ${result.checked} checked reads`;
        assert.equal(result.stale, 0, `${found}: ${JSON.stringify(result.examples)}`);
      }
    },
  },
  {
    title: 'a Deno web Worker, where isMainThread is true, sees main-thread chdirs and chdirs only as declared',
    async run(context) {
      if (runtime !== 'deno') throw new CheckSkipped("Deno's web Worker only: elsewhere it is a worker_threads worker");
      const provider = context.provider();
      const worker = await context.worker({ web: true });
      if (provider.capabilities.workerCoherent) {
        for (const name of ['web-1', 'web-2', 'web-1']) {
          const target = context.dir(name);
          provider.chdir(target);
          assert.equal(await worker.cwd(), target, 'the web worker sees a main-thread chdir');
        }
      }
      const before = readOsCwd();
      const target = context.dir('from-web-worker');
      if (provider.capabilities.chdirFromWorker && provider.capabilities.chdirScope === 'thread') {
        await worker.chdir(target);
        assert.equal(await worker.cwd(), target, 'the web worker sees its own chdir');
        assert.equal(readOsCwd(), before, "a web worker's chdir moved the process");
        assert.equal(provider.cwd(), before, "the main thread does not see a web worker's chdir");
      } else if (provider.capabilities.chdirFromWorker) {
        await worker.chdir(target);
        assert.equal(readOsCwd(), target);
        assert.equal(await worker.cwd(), target);
        if (provider.capabilities.workerCoherent) assert.equal(provider.cwd(), target, 'the main thread sees it');
      } else {
        await assert.rejects(worker.chdir(target), (error: { code?: unknown }) => {
          assert.equal(typeof error.code, 'string', 'the refusal has a code');
          return true;
        });
        assert.equal(readOsCwd(), before, 'a refused chdir in a web worker moved the process');
        assert.equal(provider.cwd(), before);
      }
    },
  },
];
