// What a worker started from a thread where thread-cwd is installed gets: the setup entry preloaded, so it starts
// installed and in its parent's cwd (handed over in environment data, see index.ts). A new thread starts bare (trap 3),
// so this is patched in every installed thread, the main thread included.
import { isMainThread, setEnvironmentData } from 'node:worker_threads';
import { codedError, syncBuiltinExports } from '@cwdkit/core';
import { BUN_HANDLES, bun, closeRecorded } from './bun.js';
import { type WorkerStart, workerStart } from './kernel.js';
import { type Fn, patcher } from './patch.js';
import { HANDOFF } from './routes.js';
import { handlePath, hold, state } from './state.js';
import { adoptStartCover, coveredWorker, startedWithSetup } from './worker-class.js';

const diagnosticsChannel = process.getBuiltinModule('node:diagnostics_channel');
const workerThreads = process.getBuiltinModule('node:worker_threads');

startedWithSetup(); // this thread's ADDED taken now, before it starts a worker of its own

/**
 * One per worker the covered Worker is constructing, innermost last (a getter of one's options may construct another):
 * a start message seen with none came from a class taken earlier. `start`: kernel mode, what this thread does around
 * that worker's thread (kernel.ts).
 */
const constructing: { readonly start: WorkerStart | undefined }[] = [];

/**
 * Node publishes each new worker on this channel right after it made the worker's thread, inside the constructor:
 * the first moment this thread can take a copy of its own fs_struct again. Subscribed when this file loads (the setup
 * entry, before the caller's code), so that it runs before the caller's subscribers, which may read files. Where Node
 * does not publish (Node 20), the constructor's end does it.
 */
diagnosticsChannel.subscribe('worker_threads', (message) => {
  constructing.at(-1)?.start?.detach((message as { worker?: unknown } | undefined)?.worker);
});

/**
 * Around each new worker of this thread: a thread with a cwd of its own hands the worker the directory itself (its
 * handle's path), not the path it had at chdir, so that it starts where its parent is now, moved or deleted, as a
 * child process inherits its cwd. Held until that worker exits, since when it adopts it cannot be seen from here (a
 * closed or reused fd would name another directory).
 */
const around = (filename: unknown) => {
  // A cwd past PATH_MAX has no path to hand over (a relative filename gets path.resolve's own ERANGE).
  if (state.own?.nameless && !(typeof filename === 'string' && /^\.\.?\//.test(filename))) {
    throw codedError(
      new Error("new Worker(): this thread's cwd is longer than PATH_MAX, so a new worker cannot start in it"),
      'ERR_CWDKIT_CWD_TOO_LONG',
    );
  }
  const own = state.own;
  const handed = own && hold(own);
  if (own) setEnvironmentData(HANDOFF, handlePath(own.fd));
  const handles = bun ? new SharedArrayBuffer(8) : undefined; // the new worker's handles (bun.ts)
  if (handles) setEnvironmentData(BUN_HANDLES, handles);
  const frame = { start: workerStart() };
  constructing.push(frame);
  return (worker: unknown) => {
    constructing.splice(constructing.lastIndexOf(frame), 1);
    if (handed) {
      if (worker) exited(worker, handed);
      else handed();
    }
    if (handles) {
      setEnvironmentData(BUN_HANDLES, undefined);
      if (worker) exited(worker, () => closeRecorded(new Int32Array(handles)));
    }
    // A worker started by a class taken before install (see coverWorkers) gets the path, and no hold.
    if (own) setEnvironmentData(HANDOFF, own.nameless ? undefined : own.bytes);
    frame.start?.detach(worker); // last: it may throw, the worker terminated
  };
};

/** Calls `listener` once the worker has exited: a node:worker_threads Worker's 'exit', a web Worker's 'close' (Bun). */
function exited(worker: unknown, listener: () => void): void {
  const events = worker as {
    once?(event: string, listener: () => void): unknown;
    addEventListener(event: string, listener: () => void, options: { once: true }): void;
  };
  if (typeof events.once === 'function') events.once('exit', listener);
  else events.addEventListener('close', listener, { once: true });
}

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
  // The cover put in place at start (start.ts on a main thread under cwdkit/register, the setup entry's early cover in
  // a worker): the same cover, taken over, not doubled.
  const adopted = adoptStartCover(around);
  const { replace, undo } = patcher();
  const undoAll = () => {
    undo();
    adopted?.();
  };
  if (!adopted) {
    replace(workerThreads, 'Worker', (Worker) => coveredWorker(Worker, around) as Fn, 'worker_threads.Worker');
  }
  // Bun's web Worker too: bare, its process.chdir would be Bun's own, which moves every thread's cached cwd.
  const web = globalThis as { Worker?: unknown };
  if (bun && typeof web.Worker === 'function') {
    replace(web, 'Worker', (Worker) => coveredWorker(Worker, around, true) as Fn, 'Worker');
  }
  // The main thread's cwd is the process's: a bare worker of it starts in the right place (and its chdir refuses).
  // Node's start message (isStart) only: Bun makes a worker's thread otherwise (routed from a worker: kernel.ts).
  if (!isMainThread && !bun) {
    try {
      replace(
        workerThreads.MessagePort.prototype,
        'postMessage',
        (postMessage) =>
          function (this: unknown, message: unknown) {
            const frame = constructing.at(-1); // this worker's: one its options' getters construct comes and goes
            if (frame) {
              // biome-ignore lint/complexity/noArguments: the port's own arity and argument checks
              const posted = Reflect.apply(postMessage, this, arguments);
              if (isStart(message)) frame.start?.enter(); // Node makes the worker's thread next
              return posted;
            }
            if (state.own !== undefined && isStart(message) && !startedWithSetup()) {
              // Uninstalled in kernel mode, the thread keeps its cwd, and this cover with it (index.ts, release).
              const taken = state.installed
                ? 'before thread-cwd was installed in this thread'
                : "before thread-cwd was installed in this thread, which keeps a cwd of its own after uninstall() (kernel mode: its fs_struct cannot be the process's again)";
              throw codedError(
                new Error(
                  `new Worker(): this Worker class was taken from node:worker_threads ${taken}, so the worker it starts would not follow this thread's cwd: take Worker from node:worker_threads after install() (or preload @cwdkit/thread-cwd/setup by its absolute path with --require, which that worker would inherit)`,
                ),
                'ERR_CWDKIT_WORKER_CLASS_CAPTURED',
              );
            }
            // biome-ignore lint/complexity/noArguments: the port's own arity and argument checks
            return Reflect.apply(postMessage, this, arguments);
          },
        'MessagePort.prototype.postMessage',
      );
    } catch (error) {
      adopted?.(); // all or nothing
      throw error;
    }
  }
  syncBuiltinExports(); // an ESM named import of Worker follows
  return undoAll;
}
