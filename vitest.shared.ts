import { defineConfig } from 'vitest/config';

// Forks, not threads: process.chdir is not allowed in worker threads, and the suites chdir for real.
export default defineConfig({ test: { pool: 'forks', testTimeout: 60_000, hookTimeout: 60_000 } });
