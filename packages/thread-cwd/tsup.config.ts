import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/setup.ts'],
  format: ['esm', 'cjs'],
  // One copy of the strategy shared by both entries in each format (CommonJS included), not one bundled into each.
  splitting: true,
  shims: true, // import.meta.url in the CommonJS build: where the setup entry a new worker preloads is
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
