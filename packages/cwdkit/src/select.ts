import { basename, dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type CwdProvider,
  checkOptions,
  codedError,
  defineStrategy,
  didYouMean,
  hasCode,
  runtime,
  type StrategyDefinition,
} from '@cwdkit/core';
import { type CwdkitConfig, findConfig } from './config.js';
import { DEFAULT_STRATEGIES, REGISTER_START, type RegisterStart, STRATEGY_VARIABLE, threadSlots } from './defaults.js';
import { exists, projectRoot } from './files.js';
import {
  type DeclaredStrategy,
  declaredStrategies,
  isExplicitPath,
  ownPackage,
  packageEntry,
  requireFile,
  strategyFolders,
} from './strategies.js';

export { DEFAULT_STRATEGIES, STRATEGY_VARIABLE } from './defaults.js';

export type SelectionSource =
  /** `function` is the one that was called, e.g. "createCwdProviderSync". */
  | { readonly kind: 'argument'; readonly function: string }
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

/** An entry of a preference list once read: a name or path as written, or a strategy object (a module unwrapped). */
type Entry = string | StrategyDefinition<never>;

interface Plan {
  readonly requests: readonly Entry[];
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

/**
 * The strategy an object passed in stands for: a StrategyDefinition itself, or a module object (a CommonJS
 * `require()`, an ES module namespace) whose default export is one.
 */
function strategyOf(value: unknown): StrategyDefinition<never> | undefined {
  if (!isRecord(value)) return undefined;
  const found = 'create' in value ? value : value.default;
  return isRecord(found) && 'create' in found ? (found as unknown as StrategyDefinition<never>) : undefined;
}

/**
 * The option keys of the published strategies, so that options beside a preference list are checked even for an
 * entry that is not installed (see optionsFor). A test holds them to each package's own `options`.
 */
export const PUBLISHED_OPTIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  native: ['mode', 'intervalMs'],
  'sab-atomics': [],
  mutex: [],
  naive: [],
  'main-thread-cache': [],
});

/**
 * Checks one config object (the argument or a file's content) and returns its requests and options.
 * `fail(key, problem)` builds the error, so that the argument and a file each say where the mistake is.
 * `objects` says whether strategy objects are allowed (the argument only).
 */
function readConfig(
  value: unknown,
  fail: (key: string, problem: string) => Error,
  objects: boolean,
): { requests: Entry[] | undefined; options: Record<string, unknown> | undefined } {
  const passed = objects ? strategyOf(value) : undefined;
  if (passed !== undefined) return { requests: [passed], options: undefined };
  if (!isRecord(value))
    throw fail('', `must be an object such as {"strategy": "sab-atomics"}, got ${describeValue(value)}`);
  for (const key of Object.keys(value)) {
    if (key !== 'strategy' && key !== 'options') {
      const hint = didYouMean(key, ['strategy', 'options']);
      throw fail(key, `is not a known key${hint ? ` (did you mean "${hint}"?)` : ''} (known: "strategy", "options")`);
    }
  }
  const { strategy, options } = value;
  const request = (entry: unknown) =>
    typeof entry === 'string' && entry.length > 0 ? entry : objects ? strategyOf(entry) : undefined;
  // An object that is not a strategy is most often a module object whose strategy sits somewhere else.
  const hint = (entry: unknown) =>
    objects && isRecord(entry)
      ? "; an object must be a strategy (with create()) or a strategy package's module, whose default export is one " +
        "(require('@cwdkit/sab-atomics').default)"
      : '';
  let requests: Entry[] | undefined;
  const single = request(strategy);
  if (single !== undefined) requests = [single];
  else if (Array.isArray(strategy) && strategy.length > 0) {
    requests = strategy.map((entry: unknown, index) => {
      const found = request(entry);
      if (found !== undefined) return found;
      throw fail(
        `strategy[${index}]`,
        `must be a strategy name or module path${objects ? ', or a strategy object' : ''}, got ${describeValue(entry)}${hint(entry)}`,
      );
    });
  } else if (strategy !== undefined) {
    throw fail(
      'strategy',
      `must be a strategy name${objects ? ', a strategy object' : ''} or a non-empty list of them, got ` +
        `${describeValue(strategy)}${hint(strategy)}`,
    );
  }
  if (options !== undefined && !isRecord(options))
    throw fail('options', `must be an object, got ${describeValue(options)}`);
  if (options !== undefined && requests === undefined) {
    throw fail('options', 'needs "strategy" beside it: options belong to the strategies it names');
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

function fromArgument(
  config: unknown,
  caller: string,
  cwd: string | undefined,
  project: string | undefined,
): Plan | undefined {
  if (config === undefined) return undefined;
  const { requests, options } = readConfig(
    config,
    (key, problem) =>
      codedError(
        new TypeError(`${caller}(): ${key === '' ? 'the config argument' : `"${key}"`} ${problem}`),
        key === '' ? 'ERR_INVALID_ARG_TYPE' : 'ERR_INVALID_ARG_VALUE',
      ),
    true,
  );
  if (requests === undefined) return undefined;
  const source = { kind: 'argument', function: caller } as const;
  return { requests, options, source, base: cwd, folders: strategyFolders(ownPackage, project) };
}

/** A scoped package name, as npm allows it: `@cwdkit/mutex` names a package, not a strategy. */
const PACKAGE_NAME = /^@[a-z0-9~-][a-z0-9._~-]*\/[a-z0-9~-][a-z0-9._~-]*$/;

function fromEnvironment(project: string | undefined, start: RegisterStart | undefined): Plan | undefined {
  const value = start ? start.variable : (process.env[STRATEGY_VARIABLE] ?? '');
  const requests = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (requests.length === 0) return undefined; // an empty value counts as unset
  for (const request of requests) {
    // Whoever sets the environment must not be able to make this process load code of their choosing. A package
    // name (@scope/name) is no path: the name check refuses it, saying which strategy the package declares.
    if ((/[/\\:]/.test(request) && !PACKAGE_NAME.test(request)) || request.startsWith('.')) {
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

function fromConfigFile(cwd: string | undefined, start: RegisterStart | undefined): Plan | undefined {
  if (cwd === undefined) return undefined;
  // What the flag's check read at start, when it read one: the same content, not the file as it is now.
  const found = start?.config !== undefined ? (start.config ?? undefined) : findConfig(cwd);
  if (found === undefined) return undefined;
  const { file } = found;
  // In package.json the config sits under the "cwdkit" key: name keys the way the user sees them.
  const prefix = basename(file) === 'package.json' ? 'cwdkit.' : '';
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
  const base = dirname(file);
  return {
    requests,
    options,
    source: { kind: 'file', file },
    base,
    folders: strategyFolders(ownPackage, projectRoot(base) ?? base),
  };
}

function plan(config: unknown, caller: string): Plan {
  // The flag's own selection (register.ts) plans from where the process started, not from where it is now.
  const start = config === undefined ? (threadSlots()[REGISTER_START] as RegisterStart | undefined) : undefined;
  const cwd = start ? start.cwd : currentDirectory();
  const project = cwd === undefined ? undefined : projectRoot(cwd);
  return (
    fromArgument(config, caller, cwd, project) ??
    fromEnvironment(project, start) ??
    fromConfigFile(cwd, start) ?? {
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
      return `the argument of ${source.function}()`;
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
  // A package's name for its strategy's ("@cwdkit/mutex" for "mutex"): the name it declares is what was meant.
  const published = request.startsWith('@cwdkit/') ? request.slice('@cwdkit/'.length) : undefined;
  const declared =
    [...known.values()].find((entry) => entry.packageName === request)?.name ??
    (published !== undefined && DEFAULT_STRATEGIES.includes(published) ? published : undefined);
  const hint = declared ?? didYouMean(request, names);
  const meant = declared
    ? `: did you mean "${declared}"? (${JSON.stringify(request)} is the package; a configuration names its strategy)`
    : hint
      ? `: did you mean "${hint}"?`
      : '.';
  return codedError(
    new Error(
      `Unknown cwdkit strategy ${JSON.stringify(request)} (from ${describeSource(plan.source)})${meant} ` +
        `Strategy names: ${names.join(', ')}; a module of your own is named by a path ("./my-strategy.js").`,
    ),
    'ERR_CWDKIT_UNKNOWN_STRATEGY',
  );
}

/** A near miss of a name (case, "_", spaces, a dot, a typo) is a mistake, never a fall-through to the next entry. */
function checkName(request: string, plan: Plan, known: () => Map<string, DeclaredStrategy>): void {
  if (DEFAULT_STRATEGIES.includes(request) || known().has(request)) return;
  const wellFormed = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(request);
  if (!wellFormed || didYouMean(request, [...DEFAULT_STRATEGIES, ...known().keys()]) !== undefined) {
    throw unknownStrategy(request, plan, known());
  }
}

/** What a preference list entry names: a strategy object, a declared package, or a module path. */
function locate(request: Entry, plan: Plan, known: () => Map<string, DeclaredStrategy>): Candidate {
  if (typeof request !== 'string')
    return { request: String(request.name), definition: request as StrategyDefinition<unknown> };
  if (plan.source.kind !== 'environment' && isExplicitPath(request)) {
    if (plan.base === undefined && !request.startsWith('file:') && !isAbsolute(request)) {
      throw codedError(
        new Error(`The cwdkit strategy module ${JSON.stringify(request)} is relative, but the cwd is gone`),
        'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
      );
    }
    const file = request.startsWith('file:') ? fileURLToPath(request) : resolvePath(plan.base ?? '/', request);
    if (!exists(file)) {
      throw codedError(
        new Error(`The cwdkit strategy module ${JSON.stringify(request)} was not found (${file})`),
        'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
      );
    }
    return { request, file };
  }
  checkName(request, plan, known);
  if (ownPackage === undefined) {
    throw codedError(
      new Error(
        `cwdkit is bundled into this program, so it cannot load the strategy "${request}" by name: import the ` +
          // Worded so that no part reads as an import statement: publint's format check is a regex over the file.
          'strategy and pass the object instead: createCwdProvider({ strategy: sabAtomics }), with sabAtomics the ' +
          'default export of "@cwdkit/sab-atomics"',
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

/**
 * On Deno, the missing permission flag somewhere in a load failure's causes (--allow-ffi, for native): Deno 2's
 * NotCapable (its PermissionDenied is the OS's EACCES, which the message tells as it is).
 */
function deniedPermission(error: unknown): Error | undefined {
  for (let cause = error; runtime === 'deno' && cause instanceof Error; cause = cause.cause) {
    if (cause.name === 'NotCapable') return cause;
  }
  return undefined;
}

function loadFailed(request: string, cause: unknown): Error {
  const denied = deniedPermission(cause);
  const reason = denied
    ? `Deno did not grant the permission it needs: ${denied.message}`
    : cause instanceof Error
      ? cause.message
      : String(cause);
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

/** The name an entry of the preference list goes by as a key of `options`: as written, or a strategy object's name. */
const entryName = (request: Entry): string => (typeof request === 'string' ? request : String(request.name));

/**
 * What the winner's create() gets from `options` (see CwdkitConfig): a key naming an entry of the list holds that
 * entry's own options, checked against what it declares wherever that is known (a strategy object, the winner, a
 * published name); any other key goes to the winner if it declares it, is left to another entry that declares it,
 * and is refused when none does. So options never make a preference list fail because they fit another entry.
 */
function optionsFor(plan: Plan, request: string, definition: StrategyDefinition<unknown>) {
  const { options } = plan;
  if (options === undefined) return undefined;
  const names = plan.requests.map(entryName);
  const isWinner = (entry: string) => entry === request || entry === definition.name;
  const declared = (entry: string): readonly string[] | undefined => {
    if (isWinner(entry)) return definition.options ?? [];
    const object = plan.requests.find((other) => typeof other !== 'string' && other.name === entry);
    if (typeof object === 'object') return (object.options as readonly string[] | undefined) ?? [];
    return Object.hasOwn(PUBLISHED_OPTIONS, entry) ? PUBLISHED_OPTIONS[entry] : undefined;
  };
  const own: readonly string[] = definition.options ?? [];
  const chosen: Record<string, unknown> = {};
  let keyed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (names.includes(key) || key === definition.name) {
      if (!isRecord(value)) {
        throw codedError(
          new TypeError(`"options.${key}" must be an object: the options of the strategy ${JSON.stringify(key)}`),
          'ERR_INVALID_ARG_VALUE',
        );
      }
      const keys = declared(key);
      if (keys !== undefined) checkOptions(isWinner(key) ? definition.name : key, keys, value);
      if (isWinner(key)) keyed = { ...keyed, ...value };
    } else if (own.includes(key)) chosen[key] = value;
    else if (names.length === 1) checkOptions(definition.name, own, { [key]: value });
    else if (!names.some((entry) => !isWinner(entry) && declared(entry)?.includes(key))) {
      throw declaredByNone(key, names, declared);
    }
  }
  const given = { ...chosen, ...keyed };
  return Object.keys(given).length === 0 ? undefined : given;
}

function declaredByNone(key: string, names: string[], declared: (entry: string) => readonly string[] | undefined) {
  const known = names.filter((entry) => declared(entry) !== undefined);
  const hint = didYouMean(key, [...known.flatMap((entry) => declared(entry) ?? []), ...names]);
  const takes = known.map((entry) => {
    const keys = declared(entry) ?? [];
    return `${entry} ${keys.length === 0 ? 'takes no options' : `takes: ${keys.join(', ')}`}`;
  });
  const unknown = names
    .filter((entry) => declared(entry) === undefined)
    .map(
      (entry) =>
        `; ${JSON.stringify(entry)} is not loaded, so its options are unknown: to give it options, key them by it: ` +
        `"options": {${JSON.stringify(entry)}: {${JSON.stringify(key)}: …}}`,
    );
  return codedError(
    new TypeError(
      `The cwdkit option ${JSON.stringify(key)} is an option of none of the listed strategies (${names.join(', ')})` +
        `${hint ? ` (did you mean "${hint}"?)` : ''}: ${takes.join('; ')}${unknown.join('')}`,
    ),
    'ERR_INVALID_ARG_VALUE',
  );
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
function selector(config: unknown, caller: string) {
  const chosen = plan(config, caller);
  let known: Map<string, DeclaredStrategy> | undefined;
  const lookup = () => {
    known ??= declaredStrategies(chosen.folders);
    return known;
  };
  // Every name is checked before the first loads: a typo after the winner would otherwise surface only on a machine
  // where the winner cannot load.
  for (const request of chosen.requests) {
    if (typeof request === 'string' && !(chosen.source.kind !== 'environment' && isExplicitPath(request))) {
      checkName(request, chosen, lookup);
    }
  }
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
          fail(entryName(request), error);
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
      let options: Record<string, unknown> | undefined;
      try {
        options = optionsFor(chosen, candidate.request, definition);
      } catch (error) {
        (error as Error).message += ` (options from ${describeSource(chosen.source)})`;
        throw error;
      }
      return { definition, request: candidate.request, module: file, source: chosen.source, options, skipped };
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
export function selectStrategy<Options = never>(config?: CwdkitConfig<Options>): Promise<StrategySelection> {
  return select(config, 'selectStrategy');
}

async function select(config: unknown, caller: string): Promise<StrategySelection> {
  const selecting = selector(config, caller);
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
export function selectStrategySync<Options = never>(config?: CwdkitConfig<Options>): StrategySelection {
  return selectSync(config, 'selectStrategySync');
}

function selectSync(config: unknown, caller: string): StrategySelection {
  const selecting = selector(config, caller);
  for (const candidate of selecting.candidates()) {
    try {
      const file = selecting.file(candidate, 'require');
      let exports: unknown;
      try {
        exports = file === undefined ? undefined : requireFile(file);
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

/**
 * A CwdProvider of the strategy chosen by configuration (see selectStrategy). Given one strategy object, its
 * `options` are typed by that strategy.
 */
export async function createCwdProvider<Options = never>(config?: CwdkitConfig<Options>): Promise<CwdProvider> {
  const { definition, options } = await select(config, 'createCwdProvider');
  return definition.create(options);
}

/** createCwdProvider for CommonJS and start-up code. */
export function createCwdProviderSync<Options = never>(config?: CwdkitConfig<Options>): CwdProvider {
  const { definition, options } = selectSync(config, 'createCwdProviderSync');
  return definition.create(options);
}
