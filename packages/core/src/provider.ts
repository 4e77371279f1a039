import { type CwdCapabilities, type CwdProvider, installHook, type StrategyDefinition } from './contract.js';
import { checkDirectory, codedError } from './errors.js';
import { resolverFor } from './resolve.js';
import { threadState } from './shared.js';

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
  /** What install() must also do for this strategy; returns its undo. Becomes provider[installHook]. */
  install?(): () => void;
  /** With externalChange 'bounded': its completed checks for a change behind its back (CwdProvider.polls). */
  polls?(): number;
}

/** Every provider closed so far on this thread, whichever copy of core built it (install() refuses them). */
const closedProviders = threadState('closed', () => new WeakSet<object>());

/** Whether `provider` was built by buildProvider and has been closed. */
export function isClosed(provider: CwdProvider): boolean {
  return closedProviders.has(provider);
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
  // A prototype of its own gives each provider a V8 shape (map) of its own. close() swaps the methods of one provider:
  // in a shared shape that tells V8 the methods of every provider can change, and the open ones' cwd() got 10-20%
  // slower (the bench's capability probe did it to every row it measured).
  const provider: CwdProvider = Object.assign(Object.create({}) as object, {
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
      closedProviders.add(provider);
      const refuse = (): never => {
        throw closedError(parts.strategy);
      };
      Object.assign(provider, { cwd: refuse, chdir: refuse, resolve: refuse, invalidate: refuse });
      parts.close?.();
    },
    [Symbol.dispose](): void {
      provider.close();
    },
    ...(parts.install ? { [installHook]: parts.install } : {}),
    ...(parts.polls ? { polls: parts.polls } : {}),
  });
  return provider;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The candidate `input` was most likely meant to be, or undefined: equal once case, `_`/`-`, spaces and dots are
 * ignored, or at most two edits away.
 */
export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  const loose = (text: string) => text.toLowerCase().replace(/[\s._-]/g, '');
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    if (loose(candidate) === loose(input)) return candidate;
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance && distance < candidate.length) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Refuses option keys a strategy does not declare, naming the ones it takes. */
export function checkOptions(name: string, declared: readonly string[], options: unknown): void {
  if (options === null || typeof options !== 'object') return; // the strategy judges the type itself
  for (const key of Object.keys(options)) {
    if (declared.includes(key)) continue;
    const takes = declared.length === 0 ? 'it takes no options' : `it takes: ${declared.join(', ')}`;
    const hint = didYouMean(key, declared);
    throw codedError(
      new TypeError(
        `The cwdkit strategy "${name}" has no option ${JSON.stringify(key)}${hint ? ` (did you mean "${hint}"?)` : ''}; ${takes}`,
      ),
      'ERR_INVALID_ARG_VALUE',
    );
  }
}

function invalidStrategy(message: string): Error {
  return codedError(new TypeError(`Invalid cwdkit strategy: ${message}`), 'ERR_CWDKIT_INVALID_STRATEGY');
}

/**
 * Checks a value against the StrategyDefinition contract and returns it frozen; throws ERR_CWDKIT_INVALID_STRATEGY.
 * Its create() refuses option keys the definition does not declare in `options`.
 */
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
  const declared: readonly string[] = candidate.options ?? [];
  if (!Array.isArray(declared) || declared.some((key) => typeof key !== 'string')) {
    throw invalidStrategy(`"${candidate.name}": options must be a list of option names`);
  }
  const { name, create } = candidate;
  return Object.freeze({
    ...definition,
    options: Object.freeze([...declared]) as StrategyDefinition<Options>['options'],
    create(options?: Options): CwdProvider {
      checkOptions(name, declared, options);
      return create.call(definition, options);
    },
  });
}
