import { defineConfig } from 'vitest/config';
import example from './vitest.config.js';

// The control: the same tests on threads without the setup line fail with ERR_WORKER_UNSUPPORTED_OPERATION
// (check/example.test.ts expects that).
export default defineConfig({ test: { ...example.test, setupFiles: [] } });
