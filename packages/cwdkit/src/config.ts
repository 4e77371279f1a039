import path from 'node:path';
import type { StrategyDefinition } from '@cwdkit/core';
import { exists, projectRoot, readJsonFile } from './files.js';

/** One entry of a preference list: a declared strategy name, an explicit module path, or the strategy itself. */
export type StrategyRequest = string | StrategyDefinition<never>;

/** What createCwdProvider() accepts, and what a config file holds. */
export interface CwdkitConfig {
  /**
   * A strategy name ("sab-atomics"), a path to a module ("./my-strategy.js"), a StrategyDefinition object, or a
   * list of them in order of preference.
   */
  readonly strategy?: StrategyRequest | readonly StrategyRequest[];
  /** Handed to the chosen strategy's create(); travels with `strategy` and needs it. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** The files the config search reads in each folder, in order. */
export const CONFIG_FILES = ['cwdkit.config.json', '.cwdkitrc.json', 'package.json'] as const;

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
  for (let dir = start; ; dir = path.dirname(dir)) {
    for (const name of CONFIG_FILES) {
      const file = path.join(dir, name);
      if (!exists(file)) continue;
      const value = readJsonFile(file);
      if (name !== 'package.json') return { file, value };
      const key = (value as { cwdkit?: unknown } | null)?.cwdkit;
      if (key !== undefined) return { file, value: key };
    }
    if (dir === root || path.dirname(dir) === dir) return undefined;
  }
}
