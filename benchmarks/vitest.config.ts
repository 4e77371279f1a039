import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../vitest.shared.js';

// The engine's V8 flags from the bench's children: its string intrinsics (to flatten ropes) and a real collector.
export default mergeConfig(shared, defineConfig({ test: { execArgv: ['--allow-natives-syntax', '--expose-gc'] } }));
