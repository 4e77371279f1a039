// The setup entry's CommonJS build (dist/setup.cjs; setup.ts says what it does): its loads are require()s.
import { deferKernelInstall, denoSettle, denoStubs } from './early.js';
import { setupInstall } from './setup-install.js';

declare const require: (id: string) => never;
declare const __filename: string | undefined;

const install = () =>
  setupInstall({ cwdkit: require('cwdkit/install'), threadCwd: require('./index.cjs'), core: require('@cwdkit/core') });
/** Bundled into another file, whatever its name: the deferred load's `./index.cjs` is not beside it (setup.ts). */
const bundled = typeof __filename !== 'string' || !/\/thread-cwd\/(?:[^/]+\/)?dist\/setup\.cjs$/.test(__filename);
let deferred = false;
const deno = (globalThis as { Deno?: unknown }).Deno !== undefined;
if (!bundled && !deno) {
  deferred = deferKernelInstall(install);
} else if (!bundled) {
  const stubs = denoStubs(install);
  deferred =
    stubs === true ||
    (stubs !== undefined &&
      denoSettle(
        stubs,
        (require('./deno-early.cjs') as typeof import('./deno-early.js')).denoKernel(() => false),
      ));
}
if (!deferred) install();
