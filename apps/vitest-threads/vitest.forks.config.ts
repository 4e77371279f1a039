import { defineConfig } from 'vitest/config';
import example from './vitest.config.js';

// The user's other choice: a process per worker, where process.chdir is the real one and needs no setup.
export default defineConfig({ test: { ...example.test, pool: 'forks', setupFiles: [] } });
