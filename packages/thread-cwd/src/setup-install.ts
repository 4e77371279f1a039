// What the setup entry does when it installs (setup.ts, setup-cjs.ts): thread-cwd, once per thread; given the
// modules, which each build of the entry loads its own way.
import type * as Core from '@cwdkit/core';
import type * as Cwdkit from 'cwdkit/install';
import type * as ThreadCwd from './index.js';

export interface SetupModules {
  readonly cwdkit: Pick<typeof Cwdkit, 'install' | 'installed'>;
  readonly threadCwd: Pick<typeof ThreadCwd, 'createProvider'>;
  readonly core: Pick<typeof Core, 'codedError'>;
}

export function setupInstall({ cwdkit, threadCwd, core }: SetupModules): void {
  const present = cwdkit.installed();
  if (present === 'thread-cwd') return;
  if (present !== undefined) {
    // Checked before createProvider(), which in a worker may already take its parent's cwd: nothing here has changed.
    throw core.codedError(
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
  cwdkit.install(threadCwd.createProvider());
}
