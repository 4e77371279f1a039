import {
  buildProvider,
  type CwdProvider,
  cwdAfterChdir,
  defineStrategy,
  osChdir,
  readOsCwd,
  runtime,
  threadState,
} from '@cwdkit/core';

/** This thread's cached cwd, shared by every provider (and every copy of this module) on the thread. */
const cache = threadState('main-thread-cache', () => ({ cwd: undefined as string | undefined }));

function refresh(): string {
  const cwd = readOsCwd();
  cache.cwd = cwd;
  return cwd;
}

function cwd(): string {
  return cache.cwd ?? refresh();
}

/** A string per thread, dropped by this thread's chdir and read again lazily. Other threads do not hear of it. */
export const strategy = defineStrategy({
  specVersion: 1,
  name: 'main-thread-cache',
  description: 'A cached string per thread, dropped on chdir; not coherent across worker threads.',
  create(): CwdProvider {
    return buildProvider({
      strategy: 'main-thread-cache',
      // Deno lets a worker chdir the process; Node and Bun refuse.
      capabilities: { workerCoherent: false, chdirFromWorker: runtime === 'deno', externalChange: 'never' },
      cwd,
      chdir(directory) {
        osChdir(directory); // in a worker on Node and Bun: the runtime's refusal, whatever the argument
        cache.cwd = cwdAfterChdir();
      },
      invalidate() {
        cache.cwd = undefined;
      },
    });
  },
});

/** A main-thread-cache CwdProvider: a cached string per thread, not coherent across threads; as strategy.create(). */
export const createProvider = (): CwdProvider => strategy.create();
export default strategy;
