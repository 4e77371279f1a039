// Installs cwdkit process-wide before the app runs, as `cwdkit/register` will (node --import, bun --preload,
// deno run --preload): the strategy comes from CWDKIT_STRATEGY (or a config file), like any user's.
import { createCwdProviderSync, install } from '@cwdkit/core';

const provider = createCwdProviderSync();
install(provider);
// What the tsc scenario's check reads: proof that the preload ran and installed this strategy.
(globalThis as Record<symbol, unknown>)[Symbol.for('cwdkit-bench.registered')] = provider.strategy;
