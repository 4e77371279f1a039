import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// These suites run in kernel mode where unshare(2) is allowed (the default), and handles mode under the seccomp
// launcher; `CWDKIT_THREAD_CWD_KERNEL=0 npx vitest run` runs them in handles mode.
// Two files at a time (vitest's default is one on two cores): this suite starts late in `npm test` and ran alone at its
// end with one core idle (CONTRIBUTING, "Where the time goes"); its files each work in a folder of their own.
export default mergeConfig(shared, defineConfig({ test: { maxWorkers: 2 } }));
