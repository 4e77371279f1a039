// `setupFiles: ['@cwdkit/thread-cwd/setup']` (vitest), `node --import @cwdkit/thread-cwd/setup`: thread-cwd installed
// in this thread, once. Loaded again (a test runner that runs several files in one worker, an ESM and a CJS copy),
// it does nothing; where install() refuses (a Bun worker, a system without /proc/self/fd) it throws that.
//
// The entry loads nothing else at first: in a Node or Deno worker where kernel mode is to be expected, the install waits for
// the worker's first chdir (early.ts, deno-early.ts), so a worker that never chdirs pays a few ms instead of ~20. That load is
// synchronous (a chdir answers at once): the CommonJS builds of cwdkit and of this package. Everywhere else it installs
// now, from the ES modules, in this realm (a vm context's install() must see that it runs in one, and refuse).
// This is the ES module build; setup-cjs.ts is the CommonJS one.
import { deferKernelInstall, denoSettle, denoStubs } from './early.js';
import { setupInstall } from './setup-install.js';

const load = () => {
  const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);
  setupInstall({ cwdkit: require('cwdkit/install'), threadCwd: require('./index.cjs'), core: require('@cwdkit/core') });
};
/**
 * Bundled into another file (deno bundle, esbuild), whatever its name: the deferred load's `./index.cjs` is not beside
 * it, so no wait. This file sits in the package's dist/ (under a version folder in Deno's npm cache); a query means it
 * was evaluated anew.
 */
const bundled = !/\/thread-cwd\/(?:[^/]+\/)?dist\/setup\.js(?:[?#]|$)/.test(import.meta.url);
let deferred = false;
const deno = (globalThis as { Deno?: unknown }).Deno !== undefined;
if (!bundled && !deno) {
  deferred = deferKernelInstall(load);
} else if (!bundled) {
  // Deno: the stubs now, then its probe, a file of its own (dist/deno-early.js) that a Node worker does not parse.
  const stubs = denoStubs(load);
  deferred =
    stubs === true ||
    (stubs !== undefined &&
      denoSettle(
        stubs,
        (await import('./deno-early.js')).denoKernel(() => false),
      ));
}
if (!deferred) {
  const [cwdkit, threadCwd, core] = await Promise.all([
    import('cwdkit/install'),
    import('./index.js'),
    import('@cwdkit/core'),
  ]);
  setupInstall({ cwdkit, threadCwd, core });
}
