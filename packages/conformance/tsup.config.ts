import { defineConfig } from 'tsup';

// ESM only: the suite is a test tool, and its workers and scripts load by URL next to these files.
export default defineConfig({
  entry: [
    'src/index.ts',
    'src/vitest.ts',
    'src/thread-safety.ts',
    'src/harness.ts',
    'src/cli.ts',
    'src/worker.ts',
    'src/stale-reader.ts',
    'src/thread-safety/early-worker.ts',
    'src/thread-safety/cold-worker.ts',
    'src/thread-safety/poll.ts',
    'src/thread-safety/fault.ts',
    'src/thread-safety/reader.ts',
  ],
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/vitest.ts', 'src/thread-safety.ts', 'src/harness.ts'] },
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest'],
});
