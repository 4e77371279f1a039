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
      `@cwdkit/thread-cwd/setup: ${present} is already installed in this thread (by an install() call, or by ` +
        `cwdkit/register preloaded with --import or NODE_OPTIONS, which took it from CWDKIT_STRATEGY, a cwdkit ` +
        `config file or its default list), and one thread has one strategy: to use thread-cwd, set ` +
        `CWDKIT_STRATEGY=thread-cwd for that register (or name thread-cwd in its config, or remove that install); ` +
        `to keep ${present}, remove this setup entry`,
    ),
    'ERR_CWDKIT_ALREADY_INSTALLED',
  );
}
