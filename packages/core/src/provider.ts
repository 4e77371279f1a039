import type { CwdCapabilities, CwdProvider, StrategyDefinition } from './contract.js';
import { checkDirectory, codedError } from './errors.js';
import { resolverFor } from './resolve.js';

/** What a strategy writes; buildProvider adds the shared parts around it. */
export interface ProviderParts {
  readonly strategy: string;
  readonly capabilities: CwdCapabilities;
  /** Called directly on the hot path: no wrapper is put around it. */
  cwd(): string;
  /** Called after the argument checks. Throws Node's chdir error shape and leaves every state as it was on failure. */
  chdir(directory: string): void;
  invalidate(): void;
  /** Releases what this provider holds; called once. */
  close?(): void;
}

function closedError(strategy: string): Error {
  return codedError(new Error(`This ${strategy} CwdProvider was closed: create a new one`), 'ERR_CWDKIT_CLOSED');
}

/**
 * A CwdProvider from a strategy's parts: argument checks on chdir, the fast resolve, an idempotent close that makes
 * every later call throw ERR_CWDKIT_CLOSED (by swapping the methods, so the open path costs nothing), and dispose.
 */
export function buildProvider(parts: ProviderParts): CwdProvider {
  const { cwd } = parts;
  let closed = false;
  const provider: CwdProvider = {
    strategy: parts.strategy,
    capabilities: Object.freeze({ ...parts.capabilities }),
    cwd,
    chdir(directory: string): void {
      checkDirectory(directory);
      parts.chdir(directory);
    },
    resolve: resolverFor(cwd),
    invalidate: () => parts.invalidate(),
    close(): void {
      if (closed) return;
      closed = true;
      const refuse = (): never => {
        throw closedError(parts.strategy);
      };
      Object.assign(provider, { cwd: refuse, chdir: refuse, resolve: refuse, invalidate: refuse });
      parts.close?.();
    },
    [Symbol.dispose](): void {
      provider.close();
    },
  };
  return provider;
}

function invalidStrategy(message: string): Error {
  return codedError(new TypeError(`Invalid cwdkit strategy: ${message}`), 'ERR_CWDKIT_INVALID_STRATEGY');
}

/** Checks a value against the StrategyDefinition contract and returns it; throws ERR_CWDKIT_INVALID_STRATEGY. */
export function defineStrategy<Options = undefined>(
  definition: StrategyDefinition<Options>,
): StrategyDefinition<Options> {
  const candidate = definition as Partial<StrategyDefinition<Options>> | null | undefined;
  if (candidate === null || typeof candidate !== 'object') throw invalidStrategy('expected an object');
  if (candidate.specVersion !== 1) {
    throw invalidStrategy(`specVersion must be 1, got ${JSON.stringify(candidate.specVersion)}`);
  }
  if (typeof candidate.name !== 'string' || !/^[a-z][a-z0-9-]*$/.test(candidate.name)) {
    throw invalidStrategy(`name must be a lowercase name such as "sab-atomics", got ${JSON.stringify(candidate.name)}`);
  }
  if (typeof candidate.description !== 'string') throw invalidStrategy(`"${candidate.name}" has no description`);
  if (typeof candidate.create !== 'function') throw invalidStrategy(`"${candidate.name}" has no create() function`);
  return Object.freeze({ ...definition });
}
