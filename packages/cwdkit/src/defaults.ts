// What both the selection (select.ts) and the start-up file of the flag (register.ts) need, and nothing else: the
// register must not load core or the selection at start.

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

/**
 * Published strategies that the flag can wait for (register.ts) although their install() does something that must be
 * there from the start: each names the module the flag loads at a Node main thread's start instead, which puts that
 * in place (its `start()`, returning its undo) and is adopted by the strategy's install() at the deferred load.
 */
export const START_MODULES: Readonly<Record<string, string>> = Object.freeze({
  'thread-cwd': '@cwdkit/thread-cwd/start',
});

/** The environment variable that chooses a strategy: a declared name, or several separated by commas. */
export const STRATEGY_VARIABLE = 'CWDKIT_STRATEGY';

/** The files the config search reads in each folder, in order. */
export const CONFIG_FILES = ['cwdkit.config.json', '.cwdkitrc.json', 'package.json'] as const;

/** A config file or a package.json larger than this is refused, never read. */
export const MAX_FILE_BYTES = 1024 * 1024;

/**
 * As core's threadSlots(), which the register must not load: the object this thread's records live on, the same in
 * every vm context of the thread (process's prototype on Node and Bun, globalThis on Deno).
 */
export function threadSlots(): Record<symbol, unknown> {
  // On Deno, `process` is not read at all: its first read initialises Deno's Node layer (~9 ms).
  const globals = globalThis as { Deno?: unknown; process?: object };
  const shared = globals.Deno === undefined && globals.process ? Object.getPrototypeOf(globals.process) : undefined;
  return (shared ?? globalThis) as Record<symbol, unknown>;
}

/** Where a load the cwdkit/register flag deferred waits (see register.ts): install() and installed() run it first. */
export const PENDING_REGISTER = Symbol.for('cwdkit.register.pending');

/** Runs the flag's deferred load on this thread, if one waits: what it installs is then what installed() reports. */
export function loadPendingRegister(): void {
  (threadSlots()[PENDING_REGISTER] as (() => void) | undefined)?.();
}

/**
 * What the flag read at start (register.ts), so that the selection it runs later, and the process's Node workers,
 * select from there and not from wherever the process has moved since: the process's own selection.
 */
export interface RegisterStart {
  /** The working directory at start; undefined when it was gone (then only cwdkit's own folders are searched). */
  readonly cwd: string | undefined;
  /** CWDKIT_STRATEGY at start ('' for unset). */
  readonly variable: string;
  /** The config file the check found (for package.json, its "cwdkit" key), null for none; undefined: search cwd. */
  readonly config?: { readonly file: string; readonly value: unknown } | null;
}

/** Where the register puts its RegisterStart while its own selection runs: select.ts then plans from it. */
export const REGISTER_START = Symbol.for('cwdkit.register.start');

/** The worker_threads environmentData key under which a Node main thread hands its RegisterStart to its workers. */
export const REGISTER_START_KEY = 'cwdkit:register.start.v1';
