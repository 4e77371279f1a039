// `@cwdkit/thread-cwd/start`: what must be in place from a Node main thread's start when thread-cwd is configured, and
// nothing more. cwdkit/register loads it at start (its START_MODULES) and defers the rest (core, the selection, this
// package's index) to the first chdir, install() or installed(), as for every strategy. The main thread's chdir is
// the process's and its fs needs no cover; only its new workers do, from the start: a worker started before the
// deferred load must start installed, in the process cwd. So this covers `new Worker` (the setup entry preloaded),
// loading node:worker_threads and nothing else; install() later adopts this cover instead of covering twice, and its
// uninstall() puts the original Worker back. Bun and Deno workers run no preload, and elsewhere than Linux thread-cwd
// is process-scoped: there is nothing to do at start.
import { isMainThread } from 'node:worker_threads';
import { coverAtStart } from './worker-class.js';

/** Puts the start cover in place (once per process) and returns its undo (a no-op once install() has adopted it). */
export function start(): () => void {
  const globals = globalThis as { Bun?: unknown; Deno?: unknown };
  if (globals.Bun !== undefined || globals.Deno !== undefined || process.platform !== 'linux') return () => {};
  if (!isMainThread) return () => {}; // a worker installs thread-cwd whole, at its own start
  return coverAtStart();
}
