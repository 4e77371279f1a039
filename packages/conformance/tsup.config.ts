import { defineConfig } from 'tsup';

// ESM only: the suite is a test tool, and its workers load by URL next to these files.
export default defineConfig({
  entry: ['src/index.ts', 'src/vitest.ts', 'src/cli.ts', 'src/worker.ts', 'src/stale-reader.ts'],
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/vitest.ts'] },
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest'],
});
