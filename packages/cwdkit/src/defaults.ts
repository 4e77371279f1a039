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

/** The environment variable that chooses a strategy: a declared name, or several separated by commas. */
export const STRATEGY_VARIABLE = 'CWDKIT_STRATEGY';

/** The files the config search reads in each folder, in order. */
export const CONFIG_FILES = ['cwdkit.config.json', '.cwdkitrc.json', 'package.json'] as const;

/** A config file or a package.json larger than this is refused, never read. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Where a load the cwdkit/register flag deferred waits (see register.ts): install() and installed() run it first. */
export const PENDING_REGISTER = Symbol.for('cwdkit.register.pending');

/** Runs the flag's deferred load on this thread, if one waits: what it installs is then what installed() reports. */
export function loadPendingRegister(): void {
  (globalThis as { [PENDING_REGISTER]?: () => void })[PENDING_REGISTER]?.();
}
