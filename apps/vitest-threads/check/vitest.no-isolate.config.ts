import { defineConfig } from 'vitest/config';

// The setup line where one worker runs several files (isolate: false, one worker): it must not install twice.
export default defineConfig({
  test: {
    include: ['check/no-isolate/*.test.ts'],
    pool: 'threads',
    isolate: false,
    maxWorkers: 1,
    setupFiles: ['@cwdkit/thread-cwd/setup'],
  },
});
