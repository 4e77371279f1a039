import { createRequire } from 'node:module';
import { type CwdCapabilities, STRATEGY_NAMES, type StrategyDefinition, type StrategyName } from '@cwdkit/core';

export interface StrategyInfo {
  readonly name: StrategyName;
  readonly installed: boolean;
  /** Why it is not installed, and what to do. */
  readonly reason?: string;
  readonly description?: string;
  /** As a provider created with default options reports them on Node's main thread. */
  readonly capabilities?: CwdCapabilities;
}

const require = createRequire(import.meta.url);

function packageExists(name: string): boolean {
  try {
    require.resolve(`@cwdkit/${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

/** Loads `@cwdkit/<name>`; the bench measures whichever strategies load, and lists the others with the reason. */
export async function discoverStrategy(name: StrategyName): Promise<StrategyInfo> {
  if (!packageExists(name)) return { name, installed: false, reason: `not installed (npm install @cwdkit/${name})` };
  let definition: StrategyDefinition<unknown> | undefined;
  try {
    definition = ((await import(`@cwdkit/${name}`)) as { default?: StrategyDefinition<unknown> }).default;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason =
      code === 'ERR_MODULE_NOT_FOUND' ? 'not built (run npm run build)' : `fails to load: ${(error as Error).message}`;
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

export function discoverStrategies(): Promise<StrategyInfo[]> {
  return Promise.all(STRATEGY_NAMES.map(discoverStrategy));
}
