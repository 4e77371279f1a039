import process from 'node:process';
import {
  buildProvider,
  type CwdCapabilities,
  type CwdProvider,
  defineStrategy,
  osChdir,
  runtime,
  runtimeCwd,
} from '@cwdkit/core';

/** Node 24 is the first major whose own worker cache is coherent (measured: 0 stale reads; Node 22: 4.3M of 35M). */
const nodeWorkerCoherent = runtime === 'node' && Number(process.versions.node.split('.')[0]) >= 24;

/**
 * The runtime's own behaviour, as measured (see README). Node and Bun cache the cwd: a chdir(2) from native code is
 * never seen, not even after invalidate(), and a worker's cache is racy (Node 20 and 22) or never refreshed (Bun).
 * Deno asks the OS on every call and lets workers chdir.
 */
const capabilities: Record<typeof runtime, CwdCapabilities> = {
  node: { workerCoherent: nodeWorkerCoherent, chdirFromWorker: false, externalChange: 'never' },
  bun: { workerCoherent: false, chdirFromWorker: false, externalChange: 'never' },
  deno: { workerCoherent: true, chdirFromWorker: true, externalChange: 'immediate' },
};

/** The runtime's own answer on every call, no cache of ours: the baseline every other strategy is measured against. */
export const strategy = defineStrategy({
  specVersion: 1,
  name: 'naive',
  description: "The runtime's own process.cwd() / Deno.cwd() on every call, no cache of ours.",
  create(): CwdProvider {
    return buildProvider({
      strategy: 'naive',
      capabilities: capabilities[runtime],
      cwd: runtimeCwd,
      chdir: osChdir,
      // The runtime's cache, where it has one, is out of our reach.
      invalidate() {},
    });
  },
});

/** A naive CwdProvider: the runtime's own process.cwd() (Deno.cwd()) on every call; the same as strategy.create(). */
export const createProvider = (): CwdProvider => strategy.create();
export default strategy;
