// What a worker started from a thread where thread-cwd is installed gets: the setup entry preloaded, so it starts
// installed and in its parent's cwd (handed over in environment data, see index.ts). A new thread starts bare (trap 3),
// so this is patched in every installed thread, the main thread included.
import { existsSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import workerThreads, { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';
import { codedError } from '@cwdkit/core';
import { type Fn, patcher } from './patch.js';
import { ADDED, HANDOFF, handlePath, hold, state } from './state.js';

declare const module: { filename?: unknown } | undefined;

/**
 * This file's folder (dist) as a URL: import.meta.url in the ESM build, the CommonJS module's filename in the CJS
 * build (tsup.config.ts defines import.meta.url there as undefined, and no shim's `__filename` crashes a CJS copy
 * bundled into an ES module); undefined when bundled (esbuild's wrapper `module` has no filename).
 */
function ownFolder(): string | undefined {
  const url =
    import.meta.url ??
    (typeof module === 'object' && typeof module?.filename === 'string' ? pathToFileURL(module.filename).href : '');
  return url ? new URL('.', url).href : undefined;
}

/**
 * The setup entry, by `--require`, first: Node runs `--import` preloads for a worker from a file but not for an `eval`
 * one, and `--require` ones first, in order (so cwdkit's register, inherited beside it, finds thread-cwd installed).
 * Undefined when thread-cwd was bundled: there is no setup.cjs beside it.
 */
const folder = ownFolder();
const setupFile = ((file) => (file && existsSync(file) ? file : undefined))(
  folder && fileURLToPath(new URL('setup.cjs', folder)),
); // a bundle's own folder has no setup.cjs: import.meta.url and module.filename then name the bundle
let warnedBundled = false;
const setupEntry = /thread-cwd[\\/](dist[\\/])?setup/;
const registerEntry = /cwdkit[\\/](dist[\\/])?register/;
const preloadsSetup = (execArgv: readonly unknown[]) =>
  execArgv.some((arg) => typeof arg === 'string' && setupEntry.test(arg));

/**
 * Whether this thread was started with the setup entry preloaded: its workers inherit that (Node hands a worker with no
 * execArgv of its own its parent's, in C++), those of a Worker class taken before install too. Read once per thread,
 * at load (the entry preloads it), before the entry this package added is taken out of `process.execArgv`: there it
 * would reach the child processes `fork()` starts from this thread (their default execArgv), which did not ask for
 * thread-cwd and would start with it installed; and `process.execArgv` says what the caller gave, as without it.
 */
function startedWithSetup(): boolean {
  if (state.preloaded !== undefined) return state.preloaded;
  state.preloaded = preloadsSetup(process.execArgv);
  const added = isMainThread ? undefined : getEnvironmentData(ADDED);
  if (typeof added === 'string') {
    setEnvironmentData(ADDED, undefined); // this thread's copy: the workers it starts are marked anew
    const at = process.execArgv.indexOf(added);
    if (at !== -1) process.execArgv.splice(at, 1);
  }
  return state.preloaded;
}
startedWithSetup();

/**
 * Whether an execArgv the caller gave preloads cwdkit's register, which then picks that worker's strategy from the
 * env it was given: the caller's choice, left alone. Not by `--import` in an `eval` worker, where Node does not run it.
 */
function callerRegisters(execArgv: readonly unknown[], evaluated: boolean): boolean {
  return execArgv.some(
    (arg, index) =>
      typeof arg === 'string' &&
      registerEntry.test(arg) &&
      !(evaluated && (arg.startsWith('--import') || execArgv[index - 1] === '--import')),
  );
}

/**
 * A Worker's options with the setup entry preloaded: to its own execArgv, or to this thread's, which it would inherit.
 * An inherited cwdkit register is not enough: `env: {}` drops the CWDKIT_STRATEGY it read here (it would install
 * another strategy there) and an `eval` worker does not run an `--import`.
 */
function withSetup(options: unknown): unknown {
  const given =
    options !== null && typeof options === 'object' ? (options as { execArgv?: unknown; eval?: unknown }) : undefined;
  const own = given?.execArgv;
  const execArgv = own ?? process.execArgv;
  // Not an array: the Worker constructor's own ERR_INVALID_ARG_TYPE, from the options as they were given.
  if (!Array.isArray(execArgv) || preloadsSetup(execArgv)) return options;
  if (own !== undefined && callerRegisters(execArgv, Boolean(given?.eval))) return options;
  if (setupFile === undefined) {
    if (!warnedBundled) {
      warnedBundled = true;
      process.emitWarning(
        'thread-cwd was bundled, so a new worker cannot preload its setup entry: it starts in the process cwd, ' +
          'without thread-cwd (keep @cwdkit/thread-cwd external to the bundle: --external:@cwdkit/thread-cwd)',
        { code: 'CWDKIT_THREAD_CWD_BUNDLED' },
      );
    }
    return options;
  }
  return { ...given, execArgv: [addedEntry(setupFile), ...execArgv] };
}

/** The entry given to a new worker's execArgv, marked for it (startedWithSetup) while the covered Worker constructs. */
const addedEntry = (file: string) => `--require=${file}`;

/** Set while the covered Worker constructs: a worker's start message seen without it came from a class taken earlier. */
let covering = false;

/**
 * A worker's start message (lib/internal/worker.js posts it on the new thread's port inside the constructor, Node
 * 20-26). Nothing else in the constructor can be reached from outside: it reads its options itself.
 */
const isStart = (message: unknown): boolean =>
  message !== null &&
  typeof message === 'object' &&
  (message as { type?: unknown }).type === 'loadScript' &&
  'doEval' in message &&
  (message as { publicPort?: unknown }).publicPort instanceof workerThreads.MessagePort;

/**
 * Covers `new Worker` on this thread and returns its undo. A `Worker` class taken before this (`const { Worker } =
 * require('node:worker_threads')` in a library loaded first; an ESM named import follows, by syncBuiltinESMExports)
 * cannot be given the preload. A worker it starts inherits this thread's execArgv, so where that already preloads the
 * setup entry it is installed all the same; anywhere else, in a thread with a cwd of its own, it would start bare in
 * the process cwd and read the wrong files, so its constructor throws ERR_CWDKIT_WORKER_CLASS_CAPTURED instead.
 */
export function coverWorkers(): () => void {
  const { replace, undo } = patcher();
  // A Proxy, not a subclass: `instanceof` holds both ways, and the statics and prototype stay the original's.
  replace(
    workerThreads,
    'Worker',
    (Worker) =>
      new Proxy(Worker, {
        construct(target, args, newTarget) {
          const filename = args[0];
          // A cwd past PATH_MAX has no path to hand over (a relative filename gets path.resolve's own ERANGE).
          if (state.own?.nameless && !(typeof filename === 'string' && /^\.\.?\//.test(filename))) {
            throw codedError(
              new Error("new Worker(): this thread's cwd is longer than PATH_MAX, so a new worker cannot start in it"),
              'ERR_CWDKIT_CWD_TOO_LONG',
            );
          }
          // Handed the directory itself (its handle's path), not the path it had at chdir: a worker starts where its
          // parent is now, moved or deleted, as a child process inherits its cwd. Held until that worker exits, since
          // when it adopts it cannot be seen from here (a closed or reused fd would name another directory).
          const own = state.own;
          const handed = own && hold(own);
          if (own) setEnvironmentData(HANDOFF, handlePath(own.fd));
          covering = true;
          const options = withSetup(args[1]);
          const added = options !== args[1] && setupFile !== undefined ? addedEntry(setupFile) : undefined;
          if (added) setEnvironmentData(ADDED, added);
          try {
            const worker = Reflect.construct(target, [filename, options, ...args.slice(2)], newTarget);
            if (handed) (worker as { once(event: string, listener: () => void): unknown }).once('exit', handed);
            return worker;
          } catch (error) {
            handed?.();
            throw error;
          } finally {
            covering = false;
            if (added) setEnvironmentData(ADDED, undefined);
            // A worker started by a class taken before install (see below) gets the path, and no hold.
            if (own) setEnvironmentData(HANDOFF, own.nameless ? undefined : own.bytes);
          }
        },
      }) as Fn,
    'worker_threads.Worker',
  );
  // The main thread's cwd is the process's: a bare worker of it starts in the right place (and its chdir refuses).
  if (!isMainThread) {
    replace(
      workerThreads.MessagePort.prototype,
      'postMessage',
      (postMessage) =>
        function (this: unknown, message: unknown) {
          if (!covering && state.own !== undefined && isStart(message) && !startedWithSetup()) {
            throw codedError(
              new Error(
                "new Worker(): this Worker class was taken from node:worker_threads before thread-cwd was installed in this thread, so the worker it starts would not follow this thread's cwd: take Worker from node:worker_threads after install() (or preload @cwdkit/thread-cwd/setup with --require, which that worker would inherit)",
              ),
              'ERR_CWDKIT_WORKER_CLASS_CAPTURED',
            );
          }
          // biome-ignore lint/complexity/noArguments: the port's own arity and argument checks
          return Reflect.apply(postMessage, this, arguments);
        },
      'MessagePort.prototype.postMessage',
    );
  }
  syncBuiltinESMExports(); // an ESM named import of Worker follows
  return undo;
}
