import { defineConfig } from 'vitest/config';
import { example } from './vitest.base.js';

export default defineConfig({
  test: {
    ...example,
    pool: 'threads',
    setupFiles: ['./setup.ts'], // process.chdir() works in each worker, for that worker only
  },
});
