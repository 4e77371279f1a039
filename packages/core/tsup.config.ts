import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: ['!cli.js'], // the second build writes cli.js at the same time
    // import.meta.url in the CommonJS build (selection resolves packages from where core is installed).
    shims: true,
    target: 'node20',
  },
  {
    // The `cwdkit` bin: ESM only, and it imports the package's own build instead of bundling a second copy.
    entry: ['src/cli.ts'],
    format: ['esm'],
    external: ['./index.js'],
    target: 'node20',
  },
]);
