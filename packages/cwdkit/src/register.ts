// `node --import cwdkit/register`, `bun --preload cwdkit/register`, `deno run --preload npm:cwdkit/register`:
// selects the strategy from configuration (CWDKIT_STRATEGY, then cwdkit.config.json …) and installs it before the app
// starts. A failure stops the program with one line: the selection's error. On the main thread the strategy's shared
// memory, which every worker the app starts later (from any pool) finds, is created at once on Bun and Node 20/22, and
// on first need on Node 24.15+ and Deno, whose own worker cwd is coherent (see core's sharedMemoryTiming).
//
// Built as CommonJS for Node and Bun: a preload pays for each module it loads, and Node builds the namespace
// of an ESM `import fs from 'node:fs'` (or 'node:process') by loading everything behind their lazy getters (streams,
// readline, fs/promises, the report): ~7 ms of a ~21 ms start. `require` returns the object as it is.
//
// Deno gets register-deno.ts instead (the "deno" export condition): there CommonJS itself costs start-up.
import { deferSharedMemory } from '@cwdkit/core';
import { install, installed } from './install.js';
import { stop } from './preload.js';
import { createCwdProviderSync } from './select.js';

try {
  deferSharedMemory();
  if (installed() === undefined) install(createCwdProviderSync());
} catch (error) {
  stop(error);
}
