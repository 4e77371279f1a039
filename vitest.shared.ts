import process from 'node:process';
import { defineConfig } from 'vitest/config';

// Forks, not threads: process.chdir is not allowed in worker threads, and the suites chdir for real.
// The conformance suites' child runs (describeCwdStrategy, describeThreadSafety) go to Bun and Deno here; the Node
// majors 22, 24 and 26 run them in `npm run test:release` (scripts/test-release.mjs), which sets this variable itself.
export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { CWDKIT_CONFORMANCE_RUNTIMES: process.env.CWDKIT_CONFORMANCE_RUNTIMES ?? 'bun,deno' },
  },
});
