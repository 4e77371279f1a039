import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../vitest.shared.js';

// The engine runs as the bench's children do: V8's string intrinsics (to flatten ropes) and a real collector.
export default mergeConfig(shared, defineConfig({ test: { execArgv: ['--allow-natives-syntax', '--expose-gc'] } }));
