import { defineConfig } from 'tsup';

// One file: the CLI, which also runs itself as the measuring child under Node, Bun and Deno.
export default defineConfig({
  entry: ['src/cli.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
});
