import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'threads',
    setupFiles: ['@cwdkit/thread-cwd/setup'], // process.chdir() works in each worker, for that worker only
    // This example's own: a worker per test file, so that on two cores its files still run at the same time (vitest's
    // default is one worker fewer than the cores), and a folder where they meet (test/together.ts).
    maxWorkers: 4,
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 60_000,
  },
});
