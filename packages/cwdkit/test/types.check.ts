// Type-level tests, checked by the package's `tsc --noEmit` (typecheck), never run: each `@ts-expect-error` must
// meet an error, or tsc fails with "Unused '@ts-expect-error' directive".
import type { StrategyDefinition } from '@cwdkit/core';
import {
  type CwdkitConfig,
  createCwdProvider,
  createCwdProviderSync,
  selectStrategy,
  selectStrategySync,
} from '../src/index.js';

// Shaped like @cwdkit/native's definition (a dependency of this package would be a cycle in the build).
declare const native: StrategyDefinition<{ mode?: 'strict' | 'cached' | 'watch'; intervalMs?: number }>;
// Shaped like @cwdkit/sab-atomics (defineStrategy without a type): no options.
declare const sabAtomics: StrategyDefinition;
declare const nativeModule: { readonly default: typeof native; readonly createProvider: () => unknown };

// A strategy object: options are typed by it.
void createCwdProvider({ strategy: native, options: { mode: 'watch', intervalMs: 5 } });
// @ts-expect-error a mode native does not have
void createCwdProvider({ strategy: native, options: { mode: 'watc' } });
// @ts-expect-error an option native does not have
createCwdProviderSync({ strategy: native, options: { mdoe: 'cached' } });
// @ts-expect-error intervalMs is a number
void selectStrategy({ strategy: native, options: { intervalMs: '5' } });
// @ts-expect-error sab-atomics takes no options
selectStrategySync({ strategy: sabAtomics, options: { mode: 'cached' } });
createCwdProviderSync({ strategy: sabAtomics });

// Its module object, as require() or `import * as` gives it: the same.
createCwdProviderSync({ strategy: nativeModule, options: { mode: 'strict' } });
// @ts-expect-error a mode native does not have, through the module object
createCwdProviderSync({ strategy: nativeModule, options: { mode: 'watc' } });

// Names and lists: options cannot be known statically, flat or keyed per strategy.
void createCwdProvider({ strategy: 'native', options: { mode: 'cached' } });
void createCwdProvider({ strategy: ['native', 'sab-atomics'], options: { native: { mode: 'cached' } } });
void createCwdProvider({ strategy: [native, 'sab-atomics'], options: { mode: 'cached' } });
void createCwdProvider();

// A config as a value (e.g. read from a file) is accepted as it was before.
declare const config: CwdkitConfig;
void createCwdProvider(config);
// @ts-expect-error a number is no strategy
void createCwdProvider({ strategy: 42 });
