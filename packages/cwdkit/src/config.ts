import { dirname, join } from 'node:path';
import type { StrategyDefinition } from '@cwdkit/core';
import { CONFIG_FILES } from './defaults.js';
import { exists, projectRoot, readJsonFile } from './files.js';

/**
 * A strategy package's module object, as `require('@cwdkit/sab-atomics')` or `import * as sabAtomics from …` gives it:
 * its default export is the strategy.
 */
export interface StrategyModule<Options = never> {
  readonly default: StrategyDefinition<Options>;
}

/** One entry of a preference list: a declared strategy name, an explicit module path, or the strategy itself. */
export type StrategyRequest = string | StrategyDefinition<never> | StrategyModule;

/**
 * What createCwdProvider() accepts, and what a config file holds (a file holds names and paths only).
 *
 * One strategy object (or its module): `options` are typed by that strategy, e.g. `{ strategy: native, options: {
 * mode: 'watch' } }`. A name or a list: `options` are either keyed by an entry of the list (`{ "native": { "mode":
 * "cached" } }`: that strategy's own options) or flat, each key going to the strategies that declare it.
 */
export type CwdkitConfig<Options = never> =
  | {
      /** The strategy object, or its package's module object. */
      readonly strategy: StrategyDefinition<Options> | StrategyModule<Options>;
      /** Handed to its create(). */
      readonly options?: NoInfer<Options>;
    }
  | {
      /**
       * A strategy name ("sab-atomics"), a path to a module ("./my-strategy.js"), or a list of names, paths and
       * strategy objects in order of preference: the first that loads wins.
       */
      readonly strategy?: string | readonly StrategyRequest[];
      /**
       * For the strategy that wins; needs `strategy` beside it. A key that is an entry of the list (the name or the
       * path as written) holds that strategy's own options; any other key goes to the strategies that declare it, and
       * one that no listed strategy declares is refused.
       */
      readonly options?: Readonly<Record<string, unknown>>;
    };

export { CONFIG_FILES };

export interface FoundConfig {
  readonly file: string;
  /** The content; for package.json, its "cwdkit" key. */
  readonly value: unknown;
}

/**
 * The nearest config file from `start` upwards, stopping at the project root (inclusive): the nearest folder with a
 * package.json or .git. Outside any project only `start` itself is searched.
 */
export function findConfig(start: string): FoundConfig | undefined {
  const root = projectRoot(start) ?? start;
  for (let dir = start; ; dir = dirname(dir)) {
    for (const name of CONFIG_FILES) {
      const file = join(dir, name);
      if (!exists(file)) continue;
      const value = readJsonFile(file);
      if (name !== 'package.json') return { file, value };
      const key = (value as { cwdkit?: unknown } | null)?.cwdkit;
      if (key !== undefined) return { file, value: key };
    }
    if (dir === root || dirname(dir) === dir) return undefined;
  }
}
