// The setup entry's CommonJS build (dist/setup.cjs; setup.ts says what it does): its loads are require()s.
import { deferKernelInstall } from './early.js';
import { setupInstall } from './setup-install.js';

declare const require: (id: string) => never;

const install = () =>
  setupInstall({ cwdkit: require('cwdkit/install'), threadCwd: require('./index.cjs'), core: require('@cwdkit/core') });
const deferred =
  (globalThis as { Deno?: unknown }).Deno !== undefined
    ? (require('./deno-early.cjs') as typeof import('./deno-early.js')).deferDenoInstall(install)
    : deferKernelInstall(install);
if (!deferred) install();
