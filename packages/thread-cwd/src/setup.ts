// `setupFiles: ['@cwdkit/thread-cwd/setup']` (vitest), `node --import @cwdkit/thread-cwd/setup`: thread-cwd installed
// in this thread, once. Loaded again (a test runner that runs several files in one worker, an ESM and a CJS copy),
// it does nothing; where install() refuses (a Bun or Deno worker, a system without /proc/self/fd) it throws that.
import { codedError } from '@cwdkit/core';
import { install, installed } from 'cwdkit';
import { createProvider } from './index.js';

const present = installed();
if (present === undefined) {
  install(createProvider());
} else if (present !== 'thread-cwd') {
  // Checked before createProvider(), which in a worker may already take its parent's cwd: nothing here has changed.
  throw codedError(
    new Error(
      `@cwdkit/thread-cwd/setup: a ${present} CwdProvider is already installed in this thread, and one thread has ` +
        `one strategy: remove that install (an install() call, or --import cwdkit/register with CWDKIT_STRATEGY or ` +
        `cwdkit.config.json naming ${present}) to use thread-cwd, or remove this setup entry to keep ${present}`,
    ),
    'ERR_CWDKIT_ALREADY_INSTALLED',
  );
}
