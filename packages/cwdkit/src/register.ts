// `node --import cwdkit/register`, `bun --preload cwdkit/register`, `deno run --preload npm:cwdkit/register`:
// selects the strategy from configuration (CWDKIT_STRATEGY, then cwdkit.config.json …) and installs it before the app
// starts. On the main thread this also creates the strategy's shared memory, so that every worker the app starts later,
// from any pool, finds it and takes the cached path. A failure stops the program with the selection's clear error.
import { install, installed } from './install.js';
import { createCwdProviderSync } from './select.js';

if (installed() === undefined) install(createCwdProviderSync());
