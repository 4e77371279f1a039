import type { TestUserConfig } from 'vitest/config';

/** What the three ways of running the example share (vitest.config.ts, vitest.no-setup.config.ts, vitest.forks.config.ts). */
export const example = {
  include: ['test/**/*.test.ts'],
  // A fresh rendezvous folder for the files (test/together.ts); afterwards, the main process's cwd must not have moved.
  globalSetup: ['./test/global-setup.ts'],
  // vitest's default is one worker fewer than the cores: on two cores the files would take turns instead of overlapping.
  maxWorkers: 3,
  testTimeout: 60_000,
  hookTimeout: 60_000,
} satisfies TestUserConfig;
