// `deno run --preload npm:cwdkit/register` (the "deno" export condition), or `--preload
// ./node_modules/cwdkit/dist/register.mjs`: register.ts as an ES module, with the strategy's ESM build. On Deno a
// CommonJS preload costs ~4 ms of start-up more than this ES one, and importing node:fs there ~7 ms (the
// selection reads its files with Deno's own calls: see files.ts). The same selection, the same one-line failure.
import { deferSharedMemory } from '@cwdkit/core';
import { install, installed } from './install.js';
import { stop } from './preload.js';
import { createCwdProvider } from './select.js';

try {
  deferSharedMemory();
  if (installed() === undefined) install(await createCwdProvider());
} catch (error) {
  stop(error);
}
