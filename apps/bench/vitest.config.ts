import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The engine's V8 flags from the bench's children (as in benchmarks/): after-chdir.test.ts runs a scenario in this
// process, whose rows flatten the strings they return (%FlattenString) and collect between rows.
// Two files at a time (vitest's default is one on two cores): most of programs.test.ts is spent asleep (its slow flag
// sleeps 2 s in each of ~18 processes, while its describe blocks collect), and the other files run meanwhile. No test
// here decides from the clock: the slow flag's verdict stands on a sleep far above a busy machine's noise.
export default mergeConfig(
  shared,
  defineConfig({ test: { execArgv: ['--allow-natives-syntax', '--expose-gc'], maxWorkers: 2 } }),
);
