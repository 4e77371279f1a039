import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { CwdCapabilities } from '@cwdkit/core';
import { same } from '../measure.js';
import type { Check, RowResult, Scenario, ScenarioContext, ScenarioResult } from '../scenario.js';
import type { WorkerRowsData } from '../worker-rows.js';

/** Runs worker-rows.ts in one worker thread and returns what it measured, with a check that it read the OS's cwd. */
async function inWorker(context: ScenarioContext, kind: WorkerRowsData['kind']): Promise<ScenarioResult> {
  const data: WorkerRowsData = {
    strategy: context.strategy.url,
    kind,
    reverse: context.reverse,
    minCpuTimeMs: context.minCpuTimeMs,
  };
  const worker = new Worker(new URL('./worker-rows.js', import.meta.url), { workerData: data });
  try {
    const [reply] = (await once(worker, 'message')) as [
      { rows?: RowResult[]; capabilities?: CwdCapabilities; cwd?: string; os?: string; error?: string },
    ];
    if (reply.error !== undefined) throw new Error(`${kind} worker failed: ${reply.error}`);
    const checks: Check[] = [same("the worker's cwd() is the OS cwd", reply.cwd, reply.os)];
    return { rows: reply.rows ?? [], checks, ...(reply.capabilities ? { capabilities: reply.capabilities } : {}) };
  } finally {
    await worker.terminate();
  }
}

export const workerHot: Scenario = {
  name: 'worker-hot',
  description: "cwd() in a worker thread, steady state (no chdir), against the worker's own (Deno.cwd() on Deno)",
  claim:
    "the brief's independent harness: a worker's cached cwd() is 5× (Node), 3.2× (Bun), ~395× (Deno) its own (Deno.cwd() on Deno)",
  run(context) {
    // The main thread created a provider first (the child's capability probe): the worker finds its shared memory.
    return inWorker(context, 'hot');
  },
};

export const workerMiss: Scenario = {
  name: 'worker-miss',
  // Its intervals were within ±3% at 10 rounds (2026-12-01b): 6 keep them tight and the recording within its time.
  rounds: 6,
  description: 'a cache miss in a worker (invalidate() + cwd()), against an OS read of the cwd',
  claim: "sab-atomics' worker miss on Bun: 5.3 µs (openat + readlink + close); the aim is ≤ 1 µs",
  run(context) {
    return inWorker(context, 'miss');
  },
};

export const coldWorker: Scenario = {
  name: 'cold-worker',
  // Its intervals were within ±3% at 10 rounds (2026-12-01b): 6 keep them tight and the recording within its time.
  rounds: 6,
  description: 'cwd() in a worker whose main thread never loaded the strategy (a pool whose main thread orchestrates)',
  claim: "the brief: such a worker pays an OS read on every cwd(), ~800 ns, 60× the worker's own process.cwd()",
  coldMainThread: true,
  run(context) {
    return inWorker(context, 'hot');
  },
};
