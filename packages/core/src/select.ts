import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { lilconfigSync } from 'lilconfig';
import { type CwdProvider, STRATEGY_NAMES, type StrategyDefinition } from './contract.js';
import { codedError, hasCode } from './errors.js';
import { defineStrategy } from './provider.js';

/** What createCwdProvider() accepts, and what a config file holds. */
export interface CwdkitConfig {
  /** A registered name ("sab-atomics"), a module specifier, or a list of them in order of preference. */
  readonly strategy?: string | readonly string[];
  /** Handed to the chosen strategy's create(); travels with `strategy` and needs it. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/**
 * Tried in order when nothing else chooses: the coherent strategies first (native also allows chdir from workers),
 * then naive (the runtime's own behaviour, correct wherever the runtime is), then main-thread-cache, which is not
 * worker-coherent and so is only picked when it is the one strategy installed.
 */
export const DEFAULT_STRATEGIES: readonly string[] = Object.freeze([
  'native',
  'sab-atomics',
  'mutex',
  'naive',
  'main-thread-cache',
]);

/** The environment variable that chooses a strategy: a registered name, or several separated by commas. */
export const STRATEGY_VARIABLE = 'CWDKIT_STRATEGY';

export type SelectionSource =
  | { readonly kind: 'argument' }
  | { readonly kind: 'environment'; readonly variable: string }
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'default' };

/** The outcome of a selection: what was chosen, where the choice came from, and what was passed over on the way. */
export interface StrategySelection {
  readonly definition: StrategyDefinition<unknown>;
  /** The entry that won, as it was written ("sab-atomics", "./my-strategy.js"). */
  readonly request: string;
  /** The file that was loaded. */
  readonly module: string;
  readonly source: SelectionSource;
  readonly options: Readonly<Record<string, unknown>> | undefined;
  /** Earlier entries of the preference list that did not load, with the reason. */
  readonly skipped: readonly { readonly request: string; readonly error: Error }[];
}

interface Plan {
  readonly requests: readonly string[];
  readonly options: Readonly<Record<string, unknown>> | undefined;
  readonly source: SelectionSource;
  /** Where relative paths and packages are resolved from. */
  readonly base: string;
}

interface Candidate {
  readonly request: string;
  readonly file: string;
}

const registered = new Set<string>(STRATEGY_NAMES);
const knownNames = STRATEGY_NAMES.join(', ');
const ownRequire = createRequire(import.meta.url);

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'string' ? JSON.stringify(value) : `${typeof value} ${JSON.stringify(value)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks one config object (the argument or a file's content) and returns its requests and options.
 * `fail(key, problem)` builds the error, so that the argument and a file each say where the mistake is.
 */
function readConfig(
  value: unknown,
  fail: (key: string, problem: string) => Error,
): { requests: string[] | undefined; options: Record<string, unknown> | undefined } {
  if (!isRecord(value))
    throw fail('', `must be an object such as {"strategy": "sab-atomics"}, got ${describeValue(value)}`);
  for (const key of Object.keys(value)) {
    if (key !== 'strategy' && key !== 'options') throw fail(key, 'is not a known key (known: "strategy", "options")');
  }
  const { strategy, options } = value;
  let requests: string[] | undefined;
  if (typeof strategy === 'string' && strategy.length > 0) requests = [strategy];
  else if (Array.isArray(strategy) && strategy.length > 0) {
    strategy.forEach((entry: unknown, index) => {
      if (typeof entry !== 'string' || entry.length === 0) {
        throw fail(`strategy[${index}]`, `must be a strategy name or module specifier, got ${describeValue(entry)}`);
      }
    });
    requests = [...(strategy as string[])];
  } else if (strategy !== undefined) {
    throw fail('strategy', `must be a strategy name or a non-empty list of names, got ${describeValue(strategy)}`);
  }
  if (options !== undefined && !isRecord(options))
    throw fail('options', `must be an object, got ${describeValue(options)}`);
  if (options !== undefined && requests === undefined) {
    throw fail('options', 'needs "strategy" beside it: options belong to one strategy');
  }
  return { requests, options: options as Record<string, unknown> | undefined };
}

function fromArgument(config: unknown): Plan | undefined {
  if (config === undefined) return undefined;
  const { requests, options } = readConfig(config, (key, problem) =>
    codedError(
      new TypeError(`createCwdProvider(): ${key === '' ? 'the config argument' : `"${key}"`} ${problem}`),
      key === '' ? 'ERR_INVALID_ARG_TYPE' : 'ERR_INVALID_ARG_VALUE',
    ),
  );
  if (requests === undefined) return undefined;
  return { requests, options, source: { kind: 'argument' }, base: process.cwd() };
}

function fromEnvironment(): Plan | undefined {
  const value = process.env[STRATEGY_VARIABLE] ?? '';
  const requests = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (requests.length === 0) return undefined; // an empty value counts as unset
  for (const request of requests) {
    if (registered.has(request)) continue;
    // Whoever sets the environment must not be able to make this process load code of their choosing.
    if (/^[.@/]|[/\\:]/.test(request)) {
      throw codedError(
        new Error(
          `${STRATEGY_VARIABLE}=${JSON.stringify(value)}: module specifiers are not accepted from the environment ` +
            `(${JSON.stringify(request)}); name a third-party strategy in cwdkit.config.json or pass it to createCwdProvider()`,
        ),
        'ERR_CWDKIT_MODULE_FROM_ENV',
      );
    }
    throw unknownStrategy(request, `${STRATEGY_VARIABLE}=${JSON.stringify(value)}`);
  }
  return {
    requests,
    options: undefined,
    source: { kind: 'environment', variable: STRATEGY_VARIABLE },
    base: process.cwd(),
  };
}

function parseJson(file: string, content: string): unknown {
  try {
    return JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw configFileError(file, `is not valid JSON (${(error as Error).message})`, error);
  }
}

function configFileError(file: string, problem: string, cause?: unknown): Error {
  return codedError(new Error(`cwdkit config file ${file} ${problem}`, { cause }), 'ERR_CWDKIT_CONFIG_FILE');
}

const searchPlaces = ['cwdkit.config.json', '.cwdkitrc.json', 'package.json'];

/** The nearest config file from the working directory upwards (up to the home directory, lilconfig's default). */
function fromConfigFile(): Plan | undefined {
  let found: ReturnType<ReturnType<typeof lilconfigSync>['search']>;
  const from = process.cwd();
  try {
    found = lilconfigSync('cwdkit', {
      searchPlaces,
      loaders: { '.json': parseJson },
      ignoreEmptySearchPlaces: false,
      cache: false,
    }).search(from);
  } catch (error) {
    if (hasCode(error) && error.code === 'ERR_CWDKIT_CONFIG_FILE') throw error;
    // open() errors name the file; read() errors (EISDIR) do not.
    const file = (error as { path?: string }).path ?? `on the way up from ${from}`;
    throw configFileError(file, `cannot be read (${(error as Error).message})`, error);
  }
  if (found === null) return undefined;
  const { filepath: file } = found;
  if (found.isEmpty) throw configFileError(file, 'is empty: write {"strategy": "<name>"} in it, or delete it');
  // In package.json the config sits under the "cwdkit" key: name keys the way the user sees them.
  const prefix = path.basename(file) === 'package.json' ? 'cwdkit.' : '';
  const { requests, options } = readConfig(found.config, (key, problem) => {
    const where = key !== '' ? `"${prefix}${key}"` : prefix ? '"cwdkit"' : 'the content';
    return codedError(new Error(`cwdkit config file ${file}: ${where} ${problem}`), 'ERR_CWDKIT_INVALID_CONFIG');
  });
  if (requests === undefined) {
    throw codedError(
      new Error(`cwdkit config file ${file}: "${prefix}strategy" is missing; name a strategy (known: ${knownNames})`),
      'ERR_CWDKIT_INVALID_CONFIG',
    );
  }
  return { requests, options, source: { kind: 'file', file }, base: path.dirname(file) };
}

function plan(config: unknown): Plan {
  return (
    fromArgument(config) ??
    fromEnvironment() ??
    fromConfigFile() ?? {
      requests: DEFAULT_STRATEGIES,
      options: undefined,
      source: { kind: 'default' },
      base: process.cwd(),
    }
  );
}

function unknownStrategy(request: string, where: string): Error {
  return codedError(
    new Error(
      `Unknown cwdkit strategy ${JSON.stringify(request)} (from ${where}). Known strategies: ${knownNames}; ` +
        'a third-party strategy is named by its package or a path to its module.',
    ),
    'ERR_CWDKIT_UNKNOWN_STRATEGY',
  );
}

export function describeSource(source: SelectionSource): string {
  switch (source.kind) {
    case 'argument':
      return 'the argument of createCwdProvider()';
    case 'environment':
      return `the environment variable ${source.variable}`;
    case 'file':
      return source.file;
    case 'default':
      return `the default list (${DEFAULT_STRATEGIES.join(', ')})`;
  }
}

/**
 * The file a request names. Registered names map to @cwdkit/<name>; relative paths are relative to the plan's base
 * (the config file's folder, or the working directory); packages are looked for from the base, then from where this
 * package is installed. Throws when nothing is found: "not installed", or "unknown" for a bare name.
 */
function locate(request: string, { base, source }: Plan): Candidate {
  const named = registered.has(request);
  const specifier = named
    ? `@cwdkit/${request}`
    : request.startsWith('file:')
      ? fileURLToPath(request)
      : /^\.\.?(\/|$)/.test(request)
        ? path.resolve(base, request)
        : request;
  for (const from of [createRequire(path.join(base, 'noop.js')), ownRequire]) {
    try {
      return { request, file: from.resolve(specifier) };
    } catch (error) {
      if (!hasCode(error) || error.code !== 'MODULE_NOT_FOUND') throw loadFailed(request, error);
    }
    if (path.isAbsolute(specifier)) break; // the same answer from anywhere
  }
  if (named) {
    throw codedError(
      new Error(`The cwdkit strategy "${request}" is not installed: npm install ${specifier}`),
      'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
    );
  }
  if (/^[a-z][a-z0-9-]*$/.test(request)) throw unknownStrategy(request, describeSource(source));
  throw codedError(
    new Error(`The cwdkit strategy module ${JSON.stringify(request)} was not found (looked from ${base})`),
    'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
  );
}

/** The StrategyDefinition a loaded module exports as default, checked by defineStrategy. */
function definitionOf(candidate: Candidate, exports: unknown): StrategyDefinition<unknown> {
  // import() of a CommonJS build gives { default: module.exports }, whose own `default` is the definition.
  let value = (exports as { default?: unknown } | null)?.default ?? exports;
  if (isRecord(value) && !('specVersion' in value) && 'default' in value) value = value.default;
  try {
    return defineStrategy(value as StrategyDefinition<unknown>);
  } catch (error) {
    (error as Error).message = `${candidate.file}: ${(error as Error).message}`;
    throw error;
  }
}

function loadFailed(request: string, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return codedError(
    new Error(`The cwdkit strategy ${JSON.stringify(request)} failed to load: ${reason}`, { cause }),
    'ERR_CWDKIT_STRATEGY_LOAD_FAILED',
  );
}

/** A failure that stops the whole selection instead of moving on to the next preference. */
function isFatal(error: unknown): boolean {
  return hasCode(error) && error.code === 'ERR_CWDKIT_UNKNOWN_STRATEGY';
}

function noStrategy(plan: Plan, skipped: StrategySelection['skipped']): Error {
  const [only] = skipped;
  if (skipped.length === 1 && only) return only.error;
  const reasons = skipped.map(({ request, error }) => `\n  - ${request}: ${error.message}`).join('');
  return codedError(
    new AggregateError(
      skipped.map(({ error }) => error),
      `No cwdkit strategy could be loaded from ${describeSource(plan.source)}:${reasons}`,
    ),
    'ERR_CWDKIT_NO_STRATEGY',
  );
}

function selection(
  plan: Plan,
  candidate: Candidate,
  exports: unknown,
  skipped: StrategySelection['skipped'],
): StrategySelection {
  const definition = definitionOf(candidate, exports);
  return {
    definition,
    request: candidate.request,
    module: candidate.file,
    source: plan.source,
    options: plan.options,
    skipped,
  };
}

/**
 * Chooses a strategy without creating a provider: the argument, then CWDKIT_STRATEGY, then the nearest config file,
 * then DEFAULT_STRATEGIES. The first entry of the chosen list that loads wins.
 */
export async function selectStrategy(config?: CwdkitConfig): Promise<StrategySelection> {
  const chosen = plan(config);
  const skipped: { request: string; error: Error }[] = [];
  for (const request of chosen.requests) {
    try {
      const candidate = locate(request, chosen);
      let exports: unknown;
      try {
        exports = await import(pathToFileURL(candidate.file).href);
      } catch (error) {
        throw loadFailed(request, error);
      }
      return selection(chosen, candidate, exports, skipped);
    } catch (error) {
      if (isFatal(error)) throw error;
      skipped.push({ request, error: error as Error });
    }
  }
  throw noStrategy(chosen, skipped);
}

/** selectStrategy for CommonJS and start-up code: loads the strategy with require() (an ES module needs Node 20.19+). */
export function selectStrategySync(config?: CwdkitConfig): StrategySelection {
  const chosen = plan(config);
  const skipped: { request: string; error: Error }[] = [];
  for (const request of chosen.requests) {
    try {
      const candidate = locate(request, chosen);
      let exports: unknown;
      try {
        exports = ownRequire(candidate.file);
      } catch (error) {
        throw loadFailed(request, error);
      }
      return selection(chosen, candidate, exports, skipped);
    } catch (error) {
      if (isFatal(error)) throw error;
      skipped.push({ request, error: error as Error });
    }
  }
  throw noStrategy(chosen, skipped);
}

/** A CwdProvider of the strategy chosen by configuration (see selectStrategy). */
export async function createCwdProvider(config?: CwdkitConfig): Promise<CwdProvider> {
  const { definition, options } = await selectStrategy(config);
  return definition.create(options);
}

/** createCwdProvider for CommonJS and start-up code. */
export function createCwdProviderSync(config?: CwdkitConfig): CwdProvider {
  const { definition, options } = selectStrategySync(config);
  return definition.create(options);
}
