import { defineConfig } from 'tsup';

// ESM only: the bench runs these files as they are on Node, Bun and Deno. The workers are their own entries, loaded by URL.
export default defineConfig({
  entry: ['src/index.ts', 'src/worker-reader.ts', 'src/worker-rows.ts', 'src/thread-cwd-rows.ts', 'src/register.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
