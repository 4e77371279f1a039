import { buildProvider, type CwdProvider, defineStrategy, osChdir, readOsCwd, runtime } from '@cwdkit/core';

/**
 * The starting point every new strategy gets: correct, because it asks the OS on every call, and slow for the same
 * reason. Make cwd() cheap, keep the conformance suite green, and declare honestly what you give up in capabilities.
 */
export const strategy = defineStrategy({
  specVersion: 1,
  name: '__NAME__',
  description: 'Asks the OS on every call (the cwdkit starting point).',
  // options: ['mode'], // the option keys create() takes (any other key is refused); none when absent
  create(): CwdProvider {
    return buildProvider({
      strategy: '__NAME__',
      // Reading the OS every time sees every change at once, on every thread. Node and Bun refuse chdir in workers.
      capabilities: { workerCoherent: true, chdirFromWorker: runtime === 'deno', externalChange: 'immediate' },
      cwd: readOsCwd,
      chdir: osChdir,
      invalidate() {},
    });
  },
});

export const createProvider = (): CwdProvider => strategy.create();
export default strategy;
