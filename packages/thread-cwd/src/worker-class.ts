// The part of the Worker cover (workers.ts) that a Node main thread needs, and nothing else: no core, no fs cover, no
// node:module. cwdkit/register loads it at start through the start entry (start.ts) when thread-cwd is configured, so
// that a worker started before the deferred load starts installed; every other thread gets it through workers.ts.
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';
import type { Fn } from './patch.js';
import { ADDED, type Added, PRELOADED, START_COVER, type StartCover } from './routes.js';

declare const module: { filename?: unknown } | undefined;

const bun = (process.versions as { bun?: string }).bun !== undefined;

type Construct = (...args: unknown[]) => unknown;

/**
 * This file's folder (dist) as a URL: import.meta.url in the ESM build, the CommonJS module's filename in the CJS
 * build (tsup.config.ts defines import.meta.url there as undefined, and no shim's `__filename` crashes a CJS copy
 * bundled into an ES module); undefined when bundled (esbuild's wrapper `module` has no filename).
 */
function ownFolder(): string | undefined {
  // node:url when first needed: it costs a fresh worker ~0.4 ms, and only a new Worker asks.
  const { pathToFileURL } = process.getBuiltinModule('node:url');
  const url =
    import.meta.url ??
    (typeof module === 'object' && typeof module?.filename === 'string' ? pathToFileURL(module.filename).href : '');
  return url ? new URL('.', url).href : undefined;
}

/**
 * The setup entry, by `--require`, first: Node runs `--import` preloads for a worker from a file but not for an `eval`
 * one, and `--require` ones first, in order (so cwdkit's register, inherited beside it, finds thread-cwd installed).
 * Undefined when thread-cwd was bundled: there is no setup.cjs beside it. Looked for at the first new Worker, not at
 * start (~0.2 ms of the flag's start-up).
 */
let setup: { file: string | undefined } | undefined;
function setupFile(): string | undefined {
  if (setup === undefined) {
    const folder = ownFolder();
    const file = folder && process.getBuiltinModule('node:url').fileURLToPath(new URL('setup.cjs', folder));
    // a bundle's own folder has no setup.cjs: import.meta.url and module.filename then name the bundle
    setup = { file: file && process.getBuiltinModule('node:fs').existsSync(file) ? file : undefined };
  }
  return setup.file;
}
let warnedBundled = false;
const setupEntry = /thread-cwd[\\/](?:dist[\\/]setup\.c?js|setup[\\/]?)$/;
const registerEntry = /cwdkit[\\/](dist[\\/])?register/;

/** A preload of the setup entry in an execArgv: its place, its length (`-r x` is 2), whether every worker runs it. */
interface Preload {
  readonly at: number;
  readonly span: number;
  readonly everywhere: boolean;
}

/**
 * Every preload of the setup entry in `execArgv`. Only an absolute `--require` (`-r`) runs in every worker: Node runs no
 * `--import` in an `eval` worker, and resolves a bare or relative name again from the cwd the worker starts in (after
 * the main thread's chdir out of the project, ERR_MODULE_NOT_FOUND). Absolute is `/` (a thread cwd is Linux-only).
 */
function setupPreloads(execArgv: readonly unknown[]): Preload[] {
  const found: Preload[] = [];
  for (let at = 0; at < execArgv.length; at++) {
    const arg = execArgv[at];
    if (typeof arg !== 'string') continue;
    const joined = /^(--require|--import)=/.exec(arg);
    const flag = joined ? joined[1] : arg;
    if (!joined && flag !== '-r' && flag !== '--require' && flag !== '--import') continue;
    const value = joined ? arg.slice(joined[0].length) : execArgv[at + 1];
    if (typeof value !== 'string') continue;
    const span = joined ? 1 : 2;
    if (setupEntry.test(value)) found.push({ at, span, everywhere: flag !== '--import' && value.startsWith('/') });
    at += span - 1;
  }
  return found;
}

/** Whether a thread started with this execArgv has the setup entry preloaded in a way each worker it starts runs too. */
export const preloadsSetup = (execArgv: readonly unknown[]) => setupPreloads(execArgv).some((p) => p.everywhere);

/**
 * Whether this thread was started with the setup entry preloaded by an absolute --require: its workers inherit that
 * (Node hands a worker with no execArgv of its own its parent's, in C++), those of a Worker class taken before install
 * too. Read once per thread, when the setup entry runs, before `process.execArgv` is given back what the caller gave
 * (the entry this package added taken out, the preloads of it it took out put back): the entry would reach the child
 * processes `fork()` starts from this thread (their default execArgv), which did not ask for thread-cwd and would
 * start with it installed; and `process.execArgv` says what the caller gave, as without it.
 */
export function startedWithSetup(): boolean {
  const known = slots[PRELOADED] as boolean | undefined;
  if (known !== undefined) return known;
  const preloaded = preloadsSetup(process.execArgv);
  slots[PRELOADED] = preloaded;
  const added = isMainThread ? undefined : (getEnvironmentData(ADDED) as Added | undefined);
  if (added !== undefined) {
    setEnvironmentData(ADDED, undefined); // this thread's copy: the workers it starts are marked anew
    if (process.execArgv.includes(added.entry)) process.execArgv.splice(0, Infinity, ...added.execArgv);
  }
  return preloaded;
}

/** startedWithSetup()'s part that cannot wait (the setup entry's early cover in a worker): execArgv given back now. */
export function takeAdded(): void {
  if (slots[PRELOADED] === undefined && !isMainThread && getEnvironmentData(ADDED) !== undefined) startedWithSetup();
}

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
 * A Worker's options with the setup entry preloaded, by its absolute `--require`, first, in its own execArgv or in this
 * thread's, which it would inherit; any other preload of the entry there is taken out (it would install nothing more,
 * and a bare name fails after a chdir). An inherited cwdkit register is not enough: `env: {}` drops the
 * CWDKIT_STRATEGY it read here (it would install another strategy there) and an `eval` worker does not run an
 * `--import`. Undefined: the options as they are.
 */
function withSetup(options: unknown): { options: unknown; added: Added | undefined } | undefined {
  const given =
    options !== null && typeof options === 'object'
      ? (options as { execArgv?: unknown; eval?: unknown; preload?: unknown })
      : undefined;
  // Bun runs no preload of the process (--preload, bunfig) in a worker, only its own `preload` option's.
  if (bun) {
    const preload = given?.preload;
    const list = preload === undefined ? [] : Array.isArray(preload) ? preload : [preload];
    if (list.some((entry) => typeof entry === 'string' && setupEntry.test(entry))) return undefined;
    const file = setupFile();
    return file === undefined ? undefined : { options: { ...given, preload: [file, ...list] }, added: undefined };
  }
  const own = given?.execArgv;
  const execArgv = own ?? process.execArgv;
  // Not an array: the Worker constructor's own ERR_INVALID_ARG_TYPE, from the options as they were given.
  if (!Array.isArray(execArgv)) return undefined;
  const preloads = setupPreloads(execArgv);
  if (preloads.length > 0 && preloads.every((p) => p.everywhere)) return undefined;
  if (own !== undefined && callerRegisters(execArgv, Boolean(given?.eval))) return undefined;
  const file = setupFile();
  if (file === undefined) {
    if (!warnedBundled) {
      warnedBundled = true;
      process.emitWarning(
        'thread-cwd was bundled, so a new worker cannot preload its setup entry: it starts in the process cwd, ' +
          'without thread-cwd (keep @cwdkit/thread-cwd external to the bundle: --external:@cwdkit/thread-cwd)',
        { code: 'CWDKIT_THREAD_CWD_BUNDLED' },
      );
    }
    return undefined;
  }
  const entry = `--require=${file}`;
  const rest = execArgv.filter((_, index) => !preloads.some((p) => index >= p.at && index < p.at + p.span));
  // What the worker's process.execArgv says: the strings, as Node shows them (it drops the rest).
  const shown = execArgv.filter((arg): arg is string => typeof arg === 'string');
  return { options: { ...given, execArgv: [entry, ...rest] }, added: { entry, execArgv: shown } };
}

/**
 * A worker's relative filename, which Node resolves with path.resolve (this thread's cwd), and Bun against its own
 * cached cwd (the process's): on Bun, joined to this thread's cwd, as process.cwd() says it. Relative is `./` or
 * `../` first for node:worker_threads (another name is its ERR_WORKER_PATH), and any path for a web Worker (not `/`,
 * not a URL such as `data:` or `blob:`).
 */
function ownFile(filename: unknown, options: unknown, web: boolean): unknown {
  if (!bun || typeof filename !== 'string' || filename.startsWith('/')) return filename;
  if (!/^\.\.?\//.test(filename) && (!web || /^[a-z][a-z\d+.-]*:/i.test(filename))) return filename;
  if ((options as { eval?: unknown } | null | undefined)?.eval) return filename;
  return `${process.cwd()}/${filename}`;
}

/**
 * What a thread with a cwd of its own does around each new worker (workers.ts): called before it is constructed (it
 * may refuse by throwing), and its result after, with the worker or undefined when the constructor threw.
 */
export type Around = (filename: unknown) => (worker: unknown) => void;

/**
 * What the covered Worker does at `new Worker`: the setup entry preloaded (so the worker starts installed), and `around`
 * it, what the installed thread does.
 */
function coveredConstruct(around?: Around, web = false): NonNullable<StartCover['construct']> {
  return (target, args, newTarget) => {
    const after = around?.(args[0]);
    let worker: unknown;
    let setup: ReturnType<typeof withSetup>;
    try {
      setup = withSetup(args[1]);
      if (setup?.added) setEnvironmentData(ADDED, setup.added);
      worker = Reflect.construct(
        target,
        [ownFile(args[0], args[1], web), setup ? setup.options : args[1], ...args.slice(2)],
        newTarget,
      );
      return worker as object;
    } finally {
      if (setup?.added) setEnvironmentData(ADDED, undefined);
      after?.(worker);
    }
  };
}

/**
 * `Worker` as a Proxy, not a subclass: `instanceof` holds both ways, and the statics and prototype stay the original's.
 * A new worker gets the setup entry preloaded, so it starts installed.
 */
export function coveredWorker(Worker: Construct, around?: Around, web = false): Construct {
  return new Proxy(Worker, { construct: coveredConstruct(around, web) as ProxyHandler<Construct>['construct'] });
}

// As core's threadSlots() (this file loads no core): the same object in every vm context of the thread.
const slots = (
  (globalThis as { Deno?: unknown }).Deno === undefined ? Object.getPrototypeOf(process) : globalThis
) as Record<symbol, unknown>;
/**
 * As core's syncBuiltinExports() (this file loads no core): ESM named imports of the builtins follow what was just
 * replaced. They exist only in a thread that loaded the ES module loader, and node:module costs a fresh CommonJS worker
 * ~1.5 ms to load.
 */
export function syncBuiltinExports(): void {
  const loaded = (process as { moduleLoadList?: readonly string[] }).moduleLoadList;
  if (loaded && !loaded.includes('NativeModule internal/modules/esm/loader')) return;
  (process.getBuiltinModule('node:module') as { syncBuiltinESMExports(): void }).syncBuiltinESMExports();
}

/**
 * node:worker_threads itself, to replace its Worker. Not a default import: in the CommonJS build that copies every
 * property descriptor of the module (esbuild's __toESM), and on Node 26 that loads its lazy `locks` at start.
 */
const threads = () => process.getBuiltinModule('node:worker_threads') as unknown as { Worker: unknown };

/** The start cover's `construct` for `around` as install() sets it (none until then). */
const startConstruct = (cover: StartCover) => coveredConstruct((filename) => cover.around?.(filename) ?? (() => {}));

/**
 * Covers this thread's `Worker` now (a second call before install() adopts it finds it in place: cwdkit/register
 * calls it once per process), and returns its undo, a no-op once install() has adopted the cover (then install()'s
 * uninstall() puts the original back).
 */
export function coverAtStart(): () => void {
  let cover = slots[START_COVER] as StartCover | undefined;
  if (cover === undefined) {
    const slot = threads();
    const original = slot.Worker;
    const placed: StartCover = { original, around: undefined, construct: undefined };
    const construct = startConstruct(placed);
    placed.construct = construct;
    // As the setup entry's early cover, it calls what the cover's `construct` is (early.ts).
    const covered = new Proxy(original as Construct, {
      construct: (target, args, newTarget) => construct(target as Fn, args, newTarget as Fn),
    });
    slot.Worker = covered;
    if (slot.Worker !== covered) throw new Error('thread-cwd: node:worker_threads.Worker cannot be replaced');
    cover = placed;
    slots[START_COVER] = cover;
  }
  const placed = cover;
  return () => {
    if (slots[START_COVER] === placed) adoptStartCover(undefined)?.();
  };
}

/**
 * The cover put in place at start (coverAtStart(), or the setup entry's early cover, which has no `construct` until
 * now), taken over by the caller (install()), which gives it `around`: its undo, which puts the original Worker back;
 * undefined when there is none to take.
 */
export function adoptStartCover(around: Around | undefined): (() => void) | undefined {
  const cover = slots[START_COVER] as StartCover | undefined;
  if (cover === undefined) return undefined;
  slots[START_COVER] = undefined;
  cover.around = around;
  cover.construct ??= startConstruct(cover);
  return () => {
    cover.around = undefined;
    threads().Worker = cover.original;
    syncBuiltinExports(); // an ESM named import of Worker, taken after the start, holds the cover until synced
  };
}
