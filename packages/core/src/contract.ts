/** The version of the CwdProvider contract that this package describes. */
export const SPEC_VERSION = 1;

export interface CwdCapabilities {
  /** After chdir() returns on one thread, a cwd() that starts afterwards on any other thread returns the new path. */
  readonly workerCoherent: boolean;
  /** chdir() may be called from a worker thread (it changes the whole process). */
  readonly chdirFromWorker: boolean;
  /**
   * A change made behind the provider's back (a plain process.chdir when not installed, chdir(2) from native code):
   * 'immediate' = seen by the next cwd(); 'bounded' = seen within boundedMs; 'never' = only after invalidate().
   */
  readonly externalChange: 'immediate' | 'bounded' | 'never';
  readonly boundedMs?: number;
  /**
   * What chdir() changes. 'process' (the meaning when absent, as in every spec-1 strategy): the whole process's
   * working directory. 'thread': in a worker, only that thread's own working directory (the main thread's chdir
   * still changes the process's); install() then lets process.chdir work in workers.
   */
  readonly chdirScope?: 'process' | 'thread';
  /**
   * With chdirScope 'thread': how an installed worker's chdir is made. 'kernel': the worker's OS thread gets a working
   * directory of its own (Linux unshare(CLONE_FS)) and a real chdir, so calls that run on that thread follow it
   * unchanged; 'handles': the thread's calls are rewritten to reach its directory by a handle. Absent elsewhere.
   */
  readonly threadCwd?: 'kernel' | 'handles';
  /**
   * True in a cold worker: one that found none of the strategy's shared memory, because its main thread had not
   * loaded the strategy when the worker started. Such a thread gets no cache of the strategy's own: every cwd() asks
   * the OS, or the runtime where the runtime's own worker cwd is coherent (Node 24.15+, Deno). Absent elsewhere (as
   * in every spec-1 strategy that does not say).
   */
  readonly cold?: boolean;
}

/**
 * The key of a provider's own install step, for what only one strategy needs when installed (thread-cwd patches
 * fs): install() calls `provider[installHook]()` after it swapped process.cwd/chdir, and the function it returns
 * on uninstall(), before the originals go back. Registered, so every copy of core agrees on it.
 */
export const installHook: unique symbol = Symbol.for('cwdkit.installHook') as never;

/**
 * The current working directory of the process, cheap and correct: what every cwdkit strategy gives. All providers of
 * one strategy in a process share state (a chdir through one is seen by the others, on every thread, as
 * `capabilities` promise). Get one from a strategy's `createProvider()` or cwdkit's `createCwdProvider()`;
 * `install()` puts it behind `process.cwd()`; `close()` (or `using`) releases it.
 */
export interface CwdProvider extends Disposable {
  /** The registered name, e.g. "sab-atomics". */
  readonly strategy: string;
  /** May depend on the options the provider was created with. */
  readonly capabilities: CwdCapabilities;
  /**
   * The current working directory, as process.cwd() gives it (the physical path), from the strategy's cache when it
   * is fresh. Never a path that names another directory: a failure throws an Error with `code` (ENOENT, for a
   * deleted directory, after invalidate()).
   */
  cwd(): string;
  /** Changes the real process cwd. */
  chdir(directory: string): void;
  /** Exactly path.resolve(...segments), against cwd(). */
  resolve(...segments: string[]): string;
  /** Forget every cache: the next cwd() asks the OS. */
  invalidate(): void;
  /** Idempotent; [Symbol.dispose] calls it. */
  close(): void;
  /**
   * With externalChange 'bounded', where the strategy polls: how many of its checks for a change made behind its back
   * have completed for this thread. A change made before a check starts is seen once that check completes, so two
   * more than at the change are always enough, however busy the machine (the conformance suite waits on this count,
   * not on the clock).
   */
  readonly polls?: () => number;
  /** Present on strategies that patch more than process.cwd/chdir when installed; see installHook. */
  readonly [installHook]?: () => () => void;
}

export interface StrategyDefinition<Options = undefined> {
  readonly specVersion: 1;
  readonly name: string;
  readonly description: string;
  /** The option keys create() takes; any other key is refused (ERR_INVALID_ARG_VALUE). None when absent. */
  readonly options?: readonly (keyof Options & string)[];
  create(options?: Options): CwdProvider;
}
