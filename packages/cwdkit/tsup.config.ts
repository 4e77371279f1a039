import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: ['src/index.ts', 'src/register.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: ['!cli.js'], // the second build writes cli.js at the same time
    // import.meta.url in the CommonJS build: bare names are resolved from where cwdkit is installed.
    shims: true,
    target: 'node20',
  },
  {
    // The CLI: ESM only, and it imports the package's own build instead of bundling a second copy.
    entry: ['src/cli.ts'],
    format: ['esm'],
    external: ['./index.js'],
    target: 'node20',
  },
]);
