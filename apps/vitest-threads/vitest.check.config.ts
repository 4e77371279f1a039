import { defineConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The repository's check (npm test): check/example.test.ts runs the example with each config above in a child vitest.
export default defineConfig({ test: { ...shared.test, include: ['check/*.test.ts'], testTimeout: 180_000 } });
