import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CwdCapabilities, StrategyDefinition } from '@cwdkit/core';
import { type DeclaredStrategy, declaredStrategies, isExplicitPath, packageEntry, strategyFolders } from 'cwdkit';
import { userPath } from './args.js';

export interface StrategyInfo {
  /** The name the strategy's package declares (`"cwdkit": {"strategy": "<name>"}` in its package.json). */
  readonly name: string;
  readonly installed: boolean;
  /** Why it is not installed, and what to do. */
  readonly reason?: string;
  readonly description?: string;
  /** As a provider created with default options reports them on Node's main thread. */
  readonly capabilities?: CwdCapabilities;
}

/** The bench's own package: strategies are looked for where it is installed, as cwdkit would. */
const benchPackage = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Every strategy an installed package declares, by name. */
export function installedStrategies(): Map<string, DeclaredStrategy> {
  return declaredStrategies(strategyFolders(benchPackage, undefined));
}

/**
 * The URL to import for a declared strategy name or an explicit module path (what the child processes, their workers
 * and the simple harness import), or undefined when no installed package declares the name.
 */
export function strategyModule(name: string): string | undefined {
  if (isExplicitPath(name)) return name.startsWith('file:') ? name : pathToFileURL(userPath(name)).href;
  const declared = installedStrategies().get(name);
  if (declared === undefined) return undefined;
  return pathToFileURL(packageEntry(declared.directory, 'import')).href;
}

/** Loads the strategy a package declares as `name` (or the module at that path); the bench measures whichever load, and lists the others. */
export async function discoverStrategy(name: string): Promise<StrategyInfo> {
  const url = strategyModule(name);
  if (url === undefined) return { name, installed: false, reason: `not installed (npm install @cwdkit/${name})` };
  let definition: StrategyDefinition<unknown> | undefined;
  try {
    definition = ((await import(url)) as { default?: StrategyDefinition<unknown> }).default;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason =
      code === 'ERR_MODULE_NOT_FOUND' && !isExplicitPath(name)
        ? 'not built (run npm run build)'
        : `fails to load: ${(error as Error).message}`;
    return { name, installed: false, reason };
  }
  if (typeof definition?.create !== 'function') {
    return { name, installed: false, reason: 'its default export is not a StrategyDefinition' };
  }
  try {
    const provider = definition.create();
    const capabilities = provider.capabilities;
    provider.close();
    return { name, installed: true, description: definition.description, capabilities };
  } catch (error) {
    return { name, installed: false, reason: `create() fails: ${(error as Error).message}` };
  }
}

/** Every strategy an installed package declares, by name (one that does not load is reported with why). */
export function discoverStrategies(): Promise<StrategyInfo[]> {
  return Promise.all([...installedStrategies().keys()].sort().map(discoverStrategy));
}
