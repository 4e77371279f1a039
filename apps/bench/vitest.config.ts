import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The engine's V8 flags from the bench's children (as in benchmarks/): after-chdir.test.ts runs a scenario in this
// process, whose rows flatten the strings they return (%FlattenString) and collect between rows.
export default mergeConfig(shared, defineConfig({ test: { execArgv: ['--allow-natives-syntax', '--expose-gc'] } }));
