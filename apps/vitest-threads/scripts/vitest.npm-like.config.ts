import { defineConfig } from 'vitest/config';
import example from '../vitest.config.js';

// The example as a user who installed cwdkit from npm runs it: vitest loads packages from node_modules with Node
// itself, while this repository's workspace packages resolve outside node_modules and are transformed by vite in each
// worker. Measured beside vitest.config.ts by scripts/measure.mjs.
export default defineConfig({
  test: { ...example.test, server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } } },
});
