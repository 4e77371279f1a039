import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type CwdProvider,
  checkOptions,
  codedError,
  defineStrategy,
  didYouMean,
  hasCode,
  type StrategyDefinition,
} from '@cwdkit/core';
import { type CwdkitConfig, findConfig, type StrategyRequest } from './config.js';
import { exists, projectRoot } from './files.js';
import {
  type DeclaredStrategy,
  declaredStrategies,
  isExplicitPath,
  ownPackage,
  packageEntry,
  strategyFolders,
} from './strategies.js';

/**
 * Tried in order when nothing else chooses: the coherent strategies first (native also sees a native chdir(2)), then
 * naive (the runtime's own behaviour, correct wherever the runtime is), then main-thread-cache, which is not
 * worker-coherent and so is only picked when it is the one strategy installed.
 */
export const DEFAULT_STRATEGIES: readonly string[] = Object.freeze([
  'native',
  'sab-atomics',
  'mutex',
  'naive',
  'main-thread-cache',
]);

/** The environment variable that chooses a strategy: a declared name, or several separated by commas. */
export const STRATEGY_VARIABLE = 'CWDKIT_STRATEGY';

export type SelectionSource =
  | { readonly kind: 'argument' }
  | { readonly kind: 'environment'; readonly variable: string }
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'default' };

/** The outcome of a selection: what was chosen, where the choice came from, and what was passed over on the way. */
export interface StrategySelection {
  readonly definition: StrategyDefinition<unknown>;
  /** The entry that won, as it was written ("sab-atomics", "./my-strategy.js"), or its name when it was an object. */
  readonly request: string;
  /** The file that was loaded, or undefined when the strategy was passed as an object. */
  readonly module: string | undefined;
  readonly source: SelectionSource;
  readonly options: Readonly<Record<string, unknown>> | undefined;
  /** Earlier entries of the preference list that did not load, with the reason. */
  readonly skipped: readonly { readonly request: string; readonly error: Error }[];
}

interface Plan {
  readonly requests: readonly StrategyRequest[];
  readonly options: Readonly<Record<string, unknown>> | undefined;
  readonly source: SelectionSource;
  /** Where explicit relative paths are resolved from (the config file's folder, or the cwd for the argument). */
  readonly base: string | undefined;
  /** The node_modules folders that may serve a bare name. */
  readonly folders: readonly string[];
}

type Candidate =
  | { readonly request: string; readonly definition: StrategyDefinition<unknown> }
  | { readonly request: string; readonly file: string }
  | { readonly request: string; readonly declared: DeclaredStrategy };

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'string' ? JSON.stringify(value) : `${typeof value} ${JSON.stringify(value)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isStrategyObject = (value: unknown): value is StrategyDefinition<never> => isRecord(value) && 'create' in value;

/**
 * Checks one config object (the argument or a file's content) and returns its requests and options.
 * `fail(key, problem)` builds the error, so that the argument and a file each say where the mistake is.
 * `objects` says whether strategy objects are allowed (the argument only).
 */
function readConfig(
  value: unknown,
  fail: (key: string, problem: string) => Error,
  objects: boolean,
): { requests: StrategyRequest[] | undefined; options: Record<string, unknown> | undefined } {
  if (objects && isStrategyObject(value)) return { requests: [value], options: undefined };
  if (!isRecord(value))
    throw fail('', `must be an object such as {"strategy": "sab-atomics"}, got ${describeValue(value)}`);
  for (const key of Object.keys(value)) {
    if (key !== 'strategy' && key !== 'options') {
      const hint = didYouMean(key, ['strategy', 'options']);
      throw fail(key, `is not a known key${hint ? ` (did you mean "${hint}"?)` : ''} (known: "strategy", "options")`);
    }
  }
  const { strategy, options } = value;
  const valid = (entry: unknown) =>
    (typeof entry === 'string' && entry.length > 0) || (objects && isStrategyObject(entry));
  let requests: StrategyRequest[] | undefined;
  if (valid(strategy)) requests = [strategy as StrategyRequest];
  else if (Array.isArray(strategy) && strategy.length > 0) {
    strategy.forEach((entry: unknown, index) => {
      if (!valid(entry)) {
        throw fail(`strategy[${index}]`, `must be a strategy name or module path, got ${describeValue(entry)}`);
      }
    });
    requests = [...(strategy as StrategyRequest[])];
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

/** The working directory, or undefined when it was deleted: selection then only looks where cwdkit is installed. */
function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

function fromArgument(config: unknown, cwd: string | undefined, project: string | undefined): Plan | undefined {
  if (config === undefined) return undefined;
  const { requests, options } = readConfig(
    config,
    (key, problem) =>
      codedError(
        new TypeError(`createCwdProvider(): ${key === '' ? 'the config argument' : `"${key}"`} ${problem}`),
        key === '' ? 'ERR_INVALID_ARG_TYPE' : 'ERR_INVALID_ARG_VALUE',
      ),
    true,
  );
  if (requests === undefined) return undefined;
  return { requests, options, source: { kind: 'argument' }, base: cwd, folders: strategyFolders(ownPackage, project) };
}

function fromEnvironment(project: string | undefined): Plan | undefined {
  const value = process.env[STRATEGY_VARIABLE] ?? '';
  const requests = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (requests.length === 0) return undefined; // an empty value counts as unset
  for (const request of requests) {
    // Whoever sets the environment must not be able to make this process load code of their choosing.
    if (/[/\\:]/.test(request) || request.startsWith('.')) {
      throw codedError(
        new Error(
          `${STRATEGY_VARIABLE}=${JSON.stringify(value)}: module paths are not accepted from the environment ` +
            `(${JSON.stringify(request)}); name the module in cwdkit.config.json or pass it to createCwdProvider()`,
        ),
        'ERR_CWDKIT_MODULE_FROM_ENV',
      );
    }
  }
  return {
    requests,
    options: undefined,
    source: { kind: 'environment', variable: STRATEGY_VARIABLE },
    base: undefined,
    folders: strategyFolders(ownPackage, project),
  };
}

function fromConfigFile(cwd: string | undefined): Plan | undefined {
  if (cwd === undefined) return undefined;
  const found = findConfig(cwd);
  if (found === undefined) return undefined;
  const { file } = found;
  // In package.json the config sits under the "cwdkit" key: name keys the way the user sees them.
  const prefix = path.basename(file) === 'package.json' ? 'cwdkit.' : '';
  const { requests, options } = readConfig(
    found.value,
    (key, problem) => {
      const where = key !== '' ? `"${prefix}${key}"` : prefix ? '"cwdkit"' : 'the content';
      return codedError(new Error(`cwdkit config file ${file}: ${where} ${problem}`), 'ERR_CWDKIT_INVALID_CONFIG');
    },
    false,
  );
  if (requests === undefined) {
    throw codedError(
      new Error(`cwdkit config file ${file}: "${prefix}strategy" is missing; name a strategy such as "sab-atomics"`),
      'ERR_CWDKIT_INVALID_CONFIG',
    );
  }
  const base = path.dirname(file);
  return {
    requests,
    options,
    source: { kind: 'file', file },
    base,
    folders: strategyFolders(ownPackage, projectRoot(base) ?? base),
  };
}

function plan(config: unknown): Plan {
  const cwd = currentDirectory();
  const project = cwd === undefined ? undefined : projectRoot(cwd);
  return (
    fromArgument(config, cwd, project) ??
    fromEnvironment(project) ??
    fromConfigFile(cwd) ?? {
      requests: DEFAULT_STRATEGIES,
      options: undefined,
      source: { kind: 'default' },
      base: undefined,
      folders: strategyFolders(ownPackage, project),
    }
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

/** A mistake in what the user wrote: it stops the selection instead of moving on to the next preference. */
function unknownStrategy(request: string, plan: Plan, known: Map<string, DeclaredStrategy>): Error {
  const names = [...new Set([...known.keys(), ...DEFAULT_STRATEGIES])].sort();
  const hint = didYouMean(request, names);
  return codedError(
    new Error(
      `Unknown cwdkit strategy ${JSON.stringify(request)} (from ${describeSource(plan.source)})` +
        `${hint ? `: did you mean "${hint}"?` : ''} Strategy names: ${names.join(', ')}; ` +
        'a module of your own is named by a path ("./my-strategy.js").',
    ),
    'ERR_CWDKIT_UNKNOWN_STRATEGY',
  );
}

/** What a preference list entry names: a strategy object, a declared package, or a module path. */
function locate(request: StrategyRequest, plan: Plan, known: () => Map<string, DeclaredStrategy>): Candidate {
  if (typeof request !== 'string')
    return { request: String(request.name), definition: request as StrategyDefinition<unknown> };
  if (plan.source.kind !== 'environment' && isExplicitPath(request)) {
    if (plan.base === undefined && !request.startsWith('file:') && !path.isAbsolute(request)) {
      throw codedError(
        new Error(`The cwdkit strategy module ${JSON.stringify(request)} is relative, but the cwd is gone`),
        'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
      );
    }
    const file = request.startsWith('file:') ? fileURLToPath(request) : path.resolve(plan.base ?? '/', request);
    if (!exists(file)) {
      throw codedError(
        new Error(`The cwdkit strategy module ${JSON.stringify(request)} was not found (${file})`),
        'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
      );
    }
    return { request, file };
  }
  if (!DEFAULT_STRATEGIES.includes(request) && !known().has(request)) {
    // A near miss of a name (case, "_", spaces, a dot, a typo) is a mistake, never a fall-through to the next entry.
    const wellFormed = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(request);
    if (!wellFormed || didYouMean(request, [...DEFAULT_STRATEGIES, ...known().keys()]) !== undefined) {
      throw unknownStrategy(request, plan, known());
    }
  }
  if (ownPackage === undefined) {
    throw codedError(
      new Error(
        `cwdkit is bundled into this program, so it cannot load the strategy "${request}" by name: import the ` +
          'strategy and pass the object instead: import sabAtomics from "@cwdkit/sab-atomics"; ' +
          'createCwdProvider({ strategy: sabAtomics })',
      ),
      'ERR_CWDKIT_BUNDLED',
    );
  }
  const declared = known().get(request);
  if (declared === undefined) {
    const install = DEFAULT_STRATEGIES.includes(request)
      ? `npm install @cwdkit/${request}`
      : `install the package that declares "cwdkit": {"strategy": "${request}"} in its package.json`;
    throw codedError(
      new Error(`The cwdkit strategy "${request}" is not installed: ${install}`),
      'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
    );
  }
  return { request, declared };
}

function loadFailed(request: string, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return codedError(
    new Error(`The cwdkit strategy ${JSON.stringify(request)} failed to load: ${reason}`, { cause }),
    'ERR_CWDKIT_STRATEGY_LOAD_FAILED',
  );
}

/** The StrategyDefinition a loaded module exports as default, checked by defineStrategy. */
function definitionOf(request: string, file: string | undefined, exports: unknown): StrategyDefinition<unknown> {
  // import() of a CommonJS build gives { default: module.exports }, whose own `default` is the definition.
  let value = (exports as { default?: unknown } | null)?.default ?? exports;
  if (isRecord(value) && !('specVersion' in value) && 'default' in value) value = value.default;
  try {
    return defineStrategy(value as StrategyDefinition<unknown>);
  } catch (error) {
    (error as Error).message = `${file ?? request}: ${(error as Error).message}`;
    throw error;
  }
}

/** A failure that stops the whole selection instead of moving on to the next preference. */
function isFatal(error: unknown): boolean {
  return (
    hasCode(error) &&
    ['ERR_CWDKIT_UNKNOWN_STRATEGY', 'ERR_CWDKIT_BUNDLED', 'ERR_INVALID_ARG_VALUE'].includes(error.code)
  );
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

/** One selection: walks the preference list, records what it passes over, and judges what it loads. */
function selector(config: unknown) {
  const chosen = plan(config);
  let known: Map<string, DeclaredStrategy> | undefined;
  const lookup = () => {
    known ??= declaredStrategies(chosen.folders);
    return known;
  };
  const skipped: { request: string; error: Error }[] = [];
  const fail = (request: string, error: unknown) => {
    if (isFatal(error)) throw error;
    skipped.push({ request, error: error as Error });
  };
  return {
    *candidates(): Generator<Candidate> {
      for (const request of chosen.requests) {
        try {
          yield locate(request, chosen, lookup);
        } catch (error) {
          fail(typeof request === 'string' ? request : String(request.name), error);
        }
      }
    },
    /** The file to load for a candidate loaded with import() or require(). */
    file(candidate: Candidate, kind: 'import' | 'require'): string | undefined {
      if ('definition' in candidate) return undefined;
      if ('file' in candidate) return candidate.file;
      return packageEntry(candidate.declared.directory, kind);
    },
    accept(candidate: Candidate, file: string | undefined, exports: unknown): StrategySelection {
      const definition =
        'definition' in candidate
          ? defineStrategy(candidate.definition)
          : definitionOf(candidate.request, file, exports);
      if ('declared' in candidate && candidate.declared.name !== definition.name) {
        throw loadFailed(
          candidate.request,
          new Error(
            `${candidate.declared.packageName} declares "${candidate.request}" but its strategy is "${definition.name}"`,
          ),
        );
      }
      try {
        checkOptions(definition.name, definition.options ?? [], chosen.options);
      } catch (error) {
        (error as Error).message += ` (options from ${describeSource(chosen.source)})`;
        throw error;
      }
      return {
        definition,
        request: candidate.request,
        module: file,
        source: chosen.source,
        options: chosen.options,
        skipped,
      };
    },
    fail,
    done(): never {
      throw noStrategy(chosen, skipped);
    },
  };
}

/**
 * Chooses a strategy without creating a provider: the argument, then CWDKIT_STRATEGY, then the nearest config file,
 * then DEFAULT_STRATEGIES. The first entry of the chosen list that loads wins.
 */
export async function selectStrategy(config?: CwdkitConfig): Promise<StrategySelection> {
  const selecting = selector(config);
  for (const candidate of selecting.candidates()) {
    try {
      const file = selecting.file(candidate, 'import');
      let exports: unknown;
      try {
        exports = file === undefined ? undefined : await import(pathToFileURL(file).href);
      } catch (error) {
        throw loadFailed(candidate.request, error);
      }
      return selecting.accept(candidate, file, exports);
    } catch (error) {
      selecting.fail(candidate.request, error);
    }
  }
  return selecting.done();
}

/** selectStrategy for CommonJS and start-up code: loads the strategy with require() (an ES module needs Node 20.19+). */
export function selectStrategySync(config?: CwdkitConfig): StrategySelection {
  const selecting = selector(config);
  for (const candidate of selecting.candidates()) {
    try {
      const file = selecting.file(candidate, 'require');
      let exports: unknown;
      try {
        exports = file === undefined ? undefined : createRequire(file)(file);
      } catch (error) {
        throw loadFailed(candidate.request, error);
      }
      return selecting.accept(candidate, file, exports);
    } catch (error) {
      selecting.fail(candidate.request, error);
    }
  }
  return selecting.done();
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
