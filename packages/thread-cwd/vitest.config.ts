import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Kernel mode is opt-in (experimental): these suites test it where unshare(2) is allowed, and handles mode under the
// seccomp launcher; test/default-mode.test.ts checks that without the variable a worker gets handles mode. A variable
// set in the shell wins (`CWDKIT_THREAD_CWD_KERNEL= npx vitest run`: the suites in handles mode).
const kernelMode = process.env.CWDKIT_THREAD_CWD_KERNEL ?? '1';
// Two files at a time (vitest's default is one on two cores): this suite starts late in `npm test` and ran alone at its
// end with one core idle (CONTRIBUTING, "Where the time goes"); its files each work in a folder of their own.
export default mergeConfig(
  shared,
  defineConfig({ test: { env: { CWDKIT_THREAD_CWD_KERNEL: kernelMode }, maxWorkers: 2 } }),
);
