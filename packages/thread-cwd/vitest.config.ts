import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Kernel mode is opt-in (experimental): these suites test it where unshare(2) is allowed, and handles mode under the
// seccomp launcher; test/default-mode.test.ts checks that without the variable a worker gets handles mode.
export default mergeConfig(shared, defineConfig({ test: { env: { CWDKIT_THREAD_CWD_KERNEL: '1' } } }));
