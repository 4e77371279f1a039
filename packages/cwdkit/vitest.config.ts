import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Two files at a time (vitest's default is one on two cores): this suite waits for every strategy's build, so it
// starts late in `npm test`, and one file at a time it was the last to finish (CONTRIBUTING, "Where the time goes").
// Its files each work in folders of their own.
export default mergeConfig(shared, defineConfig({ test: { maxWorkers: 2 } }));
