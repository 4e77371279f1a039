import { defineConfig } from 'vitest/config';
import example from '../vitest.config.js';

// The example on threads with a process.cwd()-only fake instead of thread-cwd (run from the example's folder).
export default defineConfig({ test: { ...example.test, setupFiles: ['./check/fake-cwd-setup.ts'] } });
