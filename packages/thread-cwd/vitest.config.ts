import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Kernel mode is opt-in (experimental): these suites test it where unshare(2) is allowed, and handles mode under the
// seccomp launcher; test/default-mode.test.ts checks that without the variable a worker gets handles mode. A variable
// set in the shell wins (`CWDKIT_THREAD_CWD_KERNEL= npx vitest run`: the suites in handles mode).
const kernelMode = process.env.CWDKIT_THREAD_CWD_KERNEL ?? '1';
export default mergeConfig(shared, defineConfig({ test: { env: { CWDKIT_THREAD_CWD_KERNEL: kernelMode } } }));
