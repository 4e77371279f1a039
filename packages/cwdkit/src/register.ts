// `node --import cwdkit/register`, `bun --preload cwdkit/register`, `deno run --preload npm:cwdkit/register`: installs
// the configured strategy, paying at start only for what must happen at start. Every process under the flag runs
// this file (npm scripts, test workers, every child through NODE_OPTIONS), so it loads nothing: not core, not the
// selection, not the strategy, not a builtin module that the runtime has not loaded already (node:fs and node:path
// cost Bun ~2 and ~1 ms, `process` costs Deno ~9 ms).
//
// At start it reads the configuration (CWDKIT_STRATEGY, then the nearest cwdkit.config.json, .cwdkitrc.json or the
// "cwdkit" key of package.json) and proves it valid cheaply when it is a plain list of published strategy names, one
// of which is installed (on Deno, native counts only with the ffi permission its addon needs). Then it waits. Until
// the first chdir nothing needs a
// strategy: with nothing installed, process.cwd() and path.resolve are the runtime's own, right on the main thread;
// a worker started before the first chdir finds no shared memory, and a strategy created or installed there is cold
// (correct, and its capabilities say `cold`). So the one stub is process.chdir (on Deno: Deno.chdir, and process.chdir
// once the app reads `process`, whose first read costs Deno ~9 ms, or at start when the main module is CommonJS, which
// Deno hands its `process` without that read); its first call, or the first call of cwdkit's
// install() or installed(), loads the selection and the strategy synchronously (dist/index.cjs), installs what
// createCwdProviderSync() chooses, and forwards. A stub someone kept, or wrapped (as
// Node's own worker_threads wraps process.chdir), forwards to what is installed by then.
//
// A published strategy whose install() puts in place what must be there from the start has a start module
// (defaults.ts START_MODULES; thread-cwd's covers new Workers, so that one started before the first use starts
// installed). When the first installed name has one, a Node main thread loads that module at start, runs its
// start(), and waits as for the others; the strategy's install() adopts what it put in place, and if the deferred load
// installs another strategy (that one failed to load), its undo runs. Bun and Deno need no start module (their
// workers run no preload): they just wait. A start module that cannot be found or loaded, or a name with one after
// the first installed name (it would be chosen only when that one fails to load, too late for its start), selects at
// start.
//
// Everything else is selected and installed at start, as before: options, a module path, a strategy of another
// package, or anything the cheap check cannot prove (then the selection's own error stops the program with one line,
// exit code 1). So is every Node worker (Bun and Deno run no preload in workers): the start-up this file saves is the
// process's (a worker's thread-cwd must cover fs before its app captures fs functions).
//
// If the deferred load fails (a package is present but does not load, e.g. native's addon, and nothing after it in
// the list does), the call that triggered it throws the selection's coded error, and so does every later stub call
// and installed(): never the runtime's answer under a strategy that was asked for and is missing. A Node worker's
// failure is thrown as well (its app gets the Worker's 'error' event with the coded error): only the main thread's
// start stops the program. A start in a deleted directory, where the runtime runs, must run too: it selects at once,
// without a cwd (the variable, else the default list, from cwdkit's own folders), as createCwdProvider() does there.
//
// The process selects once, from its start: the deferred load selects from the directory and the configuration the
// check read at start (select.ts plans from REGISTER_START while it runs), not from wherever the process is by then or
// from a file edited since. A Node worker is a thread of the process: once the main thread has selected (at start, or
// at the deferred load), it hands that start to later workers through worker_threads' environmentData; a worker
// started before that finds none and searches from the process's cwd, which has not moved yet (moving it loads).
//
// One source for every runtime: dist/register.mjs (Node's --import, Bun, and Deno through the "deno" condition) and
// dist/register.cjs (--require).
import {
  CONFIG_FILES,
  DEFAULT_STRATEGIES,
  MAX_FILE_BYTES,
  REGISTER_START,
  REGISTER_START_KEY,
  type RegisterStart,
  START_MODULES,
  STRATEGY_VARIABLE,
  threadSlots,
} from './defaults.js';
import { deferInstall, installedOrWaiting } from './defer.js';
import { stop } from './preload.js';

interface DenoApi {
  version: { deno: string };
  mainModule: string;
  build: { os: string };
  env: { get(name: string): string | undefined };
  cwd(): string;
  chdir(directory: string | URL): void;
  lstatSync(path: string): { isFile: boolean; size: number };
  readFileSync(path: string): Uint8Array;
  permissions: { querySync(descriptor: { name: 'ffi'; path: string }): { state: string } };
  realPathSync(path: string): string;
}
interface NodeFs {
  lstatSync(path: string, options: { throwIfNoEntry: false }): { isFile(): boolean; size: number } | undefined;
  readFileSync(path: string, options: { encoding: 'utf8'; flag: number }): string;
  constants: { O_RDONLY: number; O_NONBLOCK?: number };
}
interface BunApi {
  isMainThread?: boolean;
  file(path: string): { size: number; lastModified: number };
  mmap(path: string): Uint8Array;
}
interface NodeProcess {
  platform: string;
  versions: { node?: string };
  env: Record<string, string | undefined>;
  moduleLoadList?: readonly string[];
  cwd(): string;
  chdir(directory: string): void;
  getBuiltinModule(id: string): unknown;
}

const globals = globalThis as typeof globalThis & { Deno?: DenoApi; Bun?: BunApi; Window?: abstract new () => unknown };
const deno = typeof globals.Deno?.version?.deno === 'string' ? globals.Deno : undefined;
const bun = deno ? undefined : globals.Bun;
/** Never touched on Deno at start: there the first access initialises its Node layer (~9 ms). */
const node = () => (globalThis as unknown as { process: NodeProcess }).process;
const builtin = <T>(id: string) => node().getBuiltinModule(id) as T;

declare const module: { filename?: unknown; require?: (id: string) => unknown } | undefined;
/**
 * This file: import.meta.url in dist/register.mjs, the module's filename in dist/register.cjs. No regular expression
 * anywhere at start: Bun's first one costs its start-up ~2 MiB.
 */
const ownUrl = (import.meta as { url?: string }).url ?? '';
const ownFile =
  (ownUrl.startsWith('file://') ? ownUrl.slice('file://'.length) : '') ||
  (typeof module === 'object' && typeof module?.filename === 'string' ? module.filename : '');

const parent = (path: string) => path.slice(0, Math.max(path.lastIndexOf('/'), 0)) || '/';
const join = (dir: string, name: string) => (dir.endsWith('/') ? dir + name : `${dir}/${name}`);

/** A CommonJS file by its absolute path, loaded synchronously (the stubs answer synchronously). */
function requireFile(file: string): unknown {
  if (typeof module === 'object' && typeof module?.require === 'function') return module.require(file);
  const { createRequire } = builtin<{ createRequire(from: string): (id: string) => unknown }>('node:module');
  return createRequire(file)(file);
}

/** cwdkit's full build, beside this file. */
const cwdkit = () => requireFile(join(parent(decodeURIComponent(ownFile)), 'index.cjs')) as typeof import('./index.js');

interface WorkerThreads {
  isMainThread: boolean;
  getEnvironmentData(key: string): unknown;
  setEnvironmentData(key: string, value: unknown): void;
}
const workerThreads = () => builtin<WorkerThreads>('node:worker_threads');

/**
 * Selects from `start` and installs now, as the flag always did at start (there a failure stops the program with one
 * line). A Node main thread then hands `start` to the workers it starts from now on: they are threads of this
 * process and select what it selected, wherever its cwd is by then.
 */
function installNow(start: RegisterStart): void {
  const { createCwdProviderSync, install, installed } = cwdkit();
  if (installed() !== undefined) return;
  const slots = threadSlots();
  slots[REGISTER_START] = start;
  try {
    install(createCwdProviderSync());
  } finally {
    slots[REGISTER_START] = undefined;
  }
  if (!deno && !bun && mainThread()) workerThreads().setEnvironmentData(REGISTER_START_KEY, start);
}

/** The working directory, or undefined when it was deleted: the runtime runs there, and so must the flag. */
function currentDirectory(): string | undefined {
  try {
    return deno ? deno.cwd() : node().cwd();
  } catch {
    return undefined;
  }
}

const strategyVariable = () => (deno ? deno.env.get(STRATEGY_VARIABLE) : node().env[STRATEGY_VARIABLE]) ?? '';

// ---- the cheap check: the published names the configuration lists, or undefined (then the selection decides) ----

/** What the config search needs to know of a path: not there, a regular file of `size` bytes, or something else. */
type Found = undefined | { readonly file: boolean; readonly size: number };

/** Bun.file(…).lastModified of a path that does not exist (Bun 1.4): a size of 0 is then no file. */
const BUN_NO_FILE = 2 ** 52 - 1;

/** lstat: a dangling symlink counts as there (reading it then fails, and the selection says so at start). */
function look(file: string): Found {
  if (deno) {
    try {
      const stats = deno.lstatSync(file);
      return { file: stats.isFile, size: stats.size };
    } catch {
      return undefined; // anything but "not found" is the selection's to report: a file it cannot read is FALLBACK
    }
  }
  // Bun: node:fs costs ~2 ms and 4 MiB of its start-up. Bun.file() follows links: a dangling one looks absent here.
  if (bun) {
    const { size, lastModified } = bun.file(file);
    if (size === 0 && !(lastModified < BUN_NO_FILE)) return undefined;
    return { file: Number.isFinite(size), size }; // a FIFO's size is Infinity; a directory's is refused by mmap
  }
  const stats = builtin<NodeFs>('node:fs').lstatSync(file, { throwIfNoEntry: false });
  return stats && { file: stats.isFile(), size: stats.size };
}

const exists = (file: string) => look(file) !== undefined;

/** A small regular file's text, or undefined for anything else (the selection then reads it and says what is wrong). */
function readSmall(file: string, found: Found): string | undefined {
  if (!found?.file || found.size === 0 || found.size > MAX_FILE_BYTES) return undefined;
  try {
    if (deno) return new TextDecoder().decode(deno.readFileSync(file));
    if (bun) return new TextDecoder().decode(bun.mmap(file));
    // One native call (Node's readFileUtf8). Without blocking: what was a regular file at lstat and is now a FIFO
    // reads as nothing, which is not JSON, and the selection looks again.
    const { readFileSync, constants } = builtin<NodeFs>('node:fs');
    return readFileSync(file, { encoding: 'utf8', flag: constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) });
  } catch {
    return undefined;
  }
}

/** A published strategy the install can wait for: one of the default list, or one with a start module. */
const waitable = (name: string) => DEFAULT_STRATEGIES.includes(name) || Object.hasOwn(START_MODULES, name);

/** The names of `{"strategy": name | [names]}` when every one is a published strategy; undefined for anything else. */
function publishedNames(value: unknown): readonly string[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'strategy') return undefined;
  const { strategy } = value as { strategy: unknown };
  const names = typeof strategy === 'string' ? [strategy] : strategy;
  if (!Array.isArray(names) || names.length === 0) return undefined;
  return names.every(waitable) ? names : undefined;
}

const FALLBACK = Symbol('select at start');

interface Checked {
  readonly names: readonly string[];
  /** As RegisterStart's: the file found and its value, null for none, undefined when the variable chose. */
  readonly config: RegisterStart['config'];
}

/** What the configuration names, as config.ts's findConfig and select.ts's plan read it, if it is that simple. */
function configuredNames(cwd: string, root: string, variable: string): Checked | typeof FALLBACK {
  const entries = variable
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length > 0) {
    return entries.every(waitable) ? { names: entries, config: undefined } : FALLBACK;
  }
  for (let dir = cwd; ; dir = parent(dir)) {
    for (const name of CONFIG_FILES) {
      const file = join(dir, name);
      const found = look(file);
      if (found === undefined) continue;
      const content = readSmall(file, found);
      let value: unknown;
      try {
        value =
          content === undefined ? FALLBACK : JSON.parse(content.startsWith('\uFEFF') ? content.slice(1) : content);
      } catch {
        return FALLBACK;
      }
      if (name === 'package.json') {
        if (value === FALLBACK) return FALLBACK;
        value = (value as { cwdkit?: unknown } | null)?.cwdkit;
        if (value === undefined) continue;
      }
      const names = publishedNames(value);
      return names ? { names, config: { file, value } } : FALLBACK;
    }
    // None found; on Bun not proven (Bun.file cannot tell a dangling symlink from no file): the load looks again.
    if (dir === root || parent(dir) === dir) return { names: DEFAULT_STRATEGIES, config: bun ? undefined : null };
  }
}

/** As files.ts's projectRoot: the nearest directory from `start` up with a package.json or .git. */
function projectRoot(start: string): string | undefined {
  for (let dir = start; ; dir = parent(dir)) {
    if (exists(join(dir, 'package.json')) || exists(join(dir, '.git'))) return dir;
    if (parent(dir) === dir) return undefined;
  }
}

/**
 * The first of `names` that has its package in a folder the selection searches (strategies.ts's strategyFolders: the
 * project's node_modules, then those of cwdkit's own package up to the project it is installed in, or the root of
 * its source checkout), and that folder. A package there may still declare another name or fail to load: the load
 * says so.
 */
function firstInstalled(
  names: readonly string[],
  project: string | undefined,
): { readonly name: string; readonly folder: string } | undefined {
  const own = parent(parent(decodeURIComponent(ownFile))); // dist/register.mjs → the package
  const folders = project === undefined ? [] : [join(project, 'node_modules')];
  const first = own.indexOf('/node_modules/');
  const top = first >= 0 ? own.slice(0, first) || '/' : (projectRoot(parent(own)) ?? own);
  for (let dir = own; ; dir = parent(dir)) {
    if (!dir.endsWith('/node_modules')) folders.push(join(dir, 'node_modules'));
    if (dir === top || parent(dir) === dir) break;
  }
  for (const name of names) {
    const folder = folders.find((folder) => exists(join(folder, `@cwdkit/${name}/package.json`)));
    if (folder !== undefined && !refused(name, folder)) return { name, folder };
  }
  return undefined;
}

/**
 * Whether the runtime will refuse to load the package for a reason known at start: on Deno, native's addon without
 * the ffi permission (a query of microseconds that loads nothing). Such a name does not count as installed: the
 * selection then runs at start, and its one line stops the program, or it takes the next name.
 */
function refused(name: string, folder: string): boolean {
  if (deno === undefined || name !== 'native') return false;
  // Deno checks the addon's real path: a grant that covers a symlinked package folder (workspaces, npm link) only
  // does not let it load.
  let path = join(folder, '@cwdkit/native');
  try {
    path = deno.realPathSync(path);
  } catch {
    return false; // not readable here: the selection says why
  }
  return deno.permissions.querySync({ name: 'ffi', path }).state !== 'granted';
}

/** What a Node main thread loads at start for the strategy the deferred load will install (START_MODULES). */
interface StartModule {
  readonly name: string;
  readonly id: string;
  /** The node_modules folder its package was found in: resolved from there, as the selection will. */
  readonly folder: string;
}

/**
 * Loads a start module and runs its `start()`: its undo, for a deferred load that installs another strategy or fails.
 * Its file is the `require` condition of the subpath its package exports, read here: Node's own resolution of a
 * package's exports costs ~1 ms the first time. Throws when it cannot be found or loaded (a package without it, one
 * not small and regular JSON): the caller then selects at start.
 */
function runStart({ id, folder }: StartModule): () => void {
  const at = id.indexOf('/', id.startsWith('@') ? id.indexOf('/') + 1 : 0); // '@scope/name/sub': '@scope/name', './sub'
  const home = join(folder, id.slice(0, at));
  const manifest = join(home, 'package.json');
  const text = readSmall(manifest, look(manifest));
  const exported = text && (JSON.parse(text) as { exports?: Record<string, unknown> }).exports?.[`.${id.slice(at)}`];
  const pick = (value: unknown, key: string) =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : value;
  const relative = pick(pick(exported, 'require') ?? pick(exported, 'default'), 'default');
  if (typeof relative !== 'string' || !relative.startsWith('./')) throw new Error(`${id} is not exported`);
  const loaded = requireFile(join(home, relative.slice(2))) as { start?: unknown };
  if (typeof loaded?.start !== 'function') throw new Error(`${id} has no start()`);
  const undo = (loaded.start as () => unknown)();
  return typeof undo === 'function' ? (undo as () => void) : () => {};
}

/**
 * What the main thread's start read, and whether the install can wait: a plain configuration of published names, one
 * of them installed. What waits then selects from what was read here, not from the configuration as it is by then.
 * When the first installed name has a start module, a Node main thread loads that at start (`startModule`); a name
 * with one later in the list would be chosen only if an earlier one failed to load, too late for its start: that
 * configuration selects at start.
 */
function check(): { start: RegisterStart; wait: boolean; startModule?: StartModule } {
  const cwd = currentDirectory();
  const variable = strategyVariable();
  const now = { cwd, variable };
  if (!ownFile || cwd === undefined || (deno ? deno.build.os === 'windows' : node().platform === 'win32')) {
    return { start: now, wait: false };
  }
  const project = projectRoot(cwd);
  const checked = configuredNames(cwd, project ?? cwd, variable);
  const first = checked === FALLBACK ? undefined : firstInstalled(checked.names, project);
  if (checked === FALLBACK || first === undefined) return { start: now, wait: false };
  const later = checked.names.slice(checked.names.indexOf(first.name) + 1);
  if (later.some((name) => Object.hasOwn(START_MODULES, name))) return { start: now, wait: false };
  const id = deno || bun ? undefined : START_MODULES[first.name];
  const startModule = id === undefined ? undefined : { name: first.name, id, folder: first.folder };
  return { start: { cwd, variable, config: checked.config }, wait: true, startModule };
}

/** A Node worker's start: its process's, handed down by the thread that started it, else (none loaded yet) its own. */
function workerStart(): RegisterStart {
  const handed = deno || bun ? undefined : workerThreads().getEnvironmentData(REGISTER_START_KEY);
  return (handed as RegisterStart | undefined) ?? { cwd: currentDirectory(), variable: strategyVariable() };
}

// ---- the wait ----

/** What is installed on this thread (install.ts's record), without loading it. */
const installedName = () =>
  (threadSlots()[Symbol.for('cwdkit.install')] as { installed?: string } | undefined)?.installed;

/** As core's isMainThread, without loading worker_threads where it is not loaded (see core's shared.ts). */
function mainThread(): boolean {
  if (deno) return typeof globals.Window === 'function' && globalThis instanceof globals.Window;
  if (bun) return bun.isMainThread === true;
  const loaded = node().moduleLoadList;
  if (Array.isArray(loaded) && !loaded.includes('NativeModule internal/worker/io')) return true;
  return builtin<{ isMainThread: boolean }>('node:worker_threads').isMainThread;
}

/** What a start module put in place at start (runStart), for the strategy `name`. */
interface Started {
  readonly name: string;
  readonly undo: () => void;
}

/**
 * Defers the install to the first use: the main thread's chdir becomes the stub that loads. `started`: what the
 * strategy's start module put in place, which its install() adopts; undone if the load installs another or fails.
 */
function wait(start: RegisterStart, started?: Started): void {
  const slots = threadSlots();
  const own = deno ? undefined : node();
  // core's deferSharedMemory() (its threadState 'defer-shared-memory'): a strategy the app imports itself before the
  // first use creates its shared memory on first need too, where core says that is safe.
  const deferral = Symbol.for('cwdkit.defer-shared-memory');
  slots[deferral] ??= { requested: true };
  (slots[deferral] as { requested: boolean }).requested = true;

  const deferred = deferInstall(
    () => {
      try {
        installNow(start);
      } catch (error) {
        started?.undo();
        throw error;
      }
      if (started && installedName() !== started.name) started.undo();
    },
    own
      ? { processCwd: own.cwd, processChdir: own.chdir, denoCwd: undefined, denoChdir: undefined }
      : denoOriginals(deno as DenoApi),
  );
  const forward = (owner: Record<string, unknown>, key: string) => deferred.forward(owner, key, key === 'chdir');
  forward((deno ?? own) as unknown as Record<string, unknown>, 'chdir');
  if (own) forward(own as unknown as Record<string, unknown>, 'cwd');
  if (deno && commonJsMain(deno)) {
    forward(node() as unknown as Record<string, unknown>, 'chdir');
    forward(node() as unknown as Record<string, unknown>, 'cwd');
  } else if (deno) stubOnFirstTouch(deferred.waiting, forward);
}

/**
 * Deno: `process` is an accessor of globalThis whose first read initialises Deno's Node layer (~9 ms). Its process.chdir
 * gets the stub when the app first reads `process` itself (while the load still waits), at the app's cost. One read
 * through `import process from 'node:process'` does not come here: that chdir then stays Deno's own until the first
 * use, which leaves nothing wrong (nothing is installed), only the strategy unloaded.
 */
function stubOnFirstTouch(waiting: () => boolean, forward: (owner: Record<string, unknown>, key: string) => void) {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'process');
  const read = descriptor?.get;
  if (!descriptor?.configurable || !read) return;
  Object.defineProperty(globalThis, 'process', {
    ...descriptor,
    get(this: unknown) {
      Object.defineProperty(globalThis, 'process', descriptor);
      const value = read.call(this) as Record<string, unknown>;
      if (waiting()) {
        forward(value, 'chdir');
        forward(value, 'cwd');
      }
      return value;
    },
  });
}

/**
 * Deno: whether the main module is CommonJS, as Deno 2.9 decides (without --unstable-detect-cjs): .cjs or .cts, or
 * .js, .jsx, .ts or .tsx whose nearest package.json says "type": "commonjs". Deno runs it with its Node layer's
 * `process` passed in, never read from the global that stubOnFirstTouch watches; that layer initialises before it runs
 * anyway, so reading `process` at start costs such a program nothing. A CommonJS module an ES module app loads gets
 * the same `process`: its chdir is Deno's own until the first use (nothing installed, nothing wrong).
 */
function commonJsMain({ mainModule }: DenoApi): boolean {
  let file: string;
  try {
    if (!mainModule.startsWith('file://')) return false;
    file = decodeURIComponent(mainModule.slice('file://'.length));
  } catch {
    return false;
  }
  if (file.endsWith('.cjs') || file.endsWith('.cts')) return true;
  if (!['.js', '.jsx', '.ts', '.tsx'].some((extension) => file.endsWith(extension))) return false;
  for (let dir = parent(file); ; dir = parent(dir)) {
    const manifest = join(dir, 'package.json');
    const found = look(manifest);
    if (found !== undefined) {
      try {
        return (JSON.parse(readSmall(manifest, found) ?? '') as { type?: unknown } | null)?.type === 'commonjs';
      } catch {
        return false;
      }
    }
    if (parent(dir) === dir) return false;
  }
}

/** Deno's own functions for core; its process functions read when core asks (it only calls Deno's own there). */
function denoOriginals({ cwd, chdir }: DenoApi) {
  return {
    denoCwd: cwd,
    denoChdir: chdir,
    get processCwd() {
      return node().cwd;
    },
    get processChdir() {
      return node().chdir;
    },
  };
}

/** A Node main thread's wait for a strategy with a start module: that first; where it cannot load, the install now. */
function waitStarted(start: RegisterStart, startModule: StartModule): void {
  let undo: () => void;
  try {
    undo = runStart(startModule);
  } catch {
    installNow(start); // not found or not loadable (a bundle, another version): selected at start, its error if any
    return;
  }
  wait(start, { name: startModule.name, undo });
}

try {
  // Nothing to do where a strategy is installed, or a deferred install waits: another copy of this file (its ESM and
  // CJS builds both preloaded), or @cwdkit/thread-cwd/setup in a worker (which the thread-cwd strategy's Worker cover
  // preloads first: its install waits for the worker's first chdir).
  if (!installedOrWaiting()) {
    // A Node worker (Bun and Deno run no preload in workers) installs at its start, as before: the flag's
    // start-up cost is the process's, and what is installed in a worker is then there before its code runs.
    if (mainThread()) {
      const { start, wait: deferred, startModule } = check();
      if (!deferred) installNow(start);
      else if (startModule) waitStarted(start, startModule);
      else wait(start);
    } else installNow(workerStart());
  }
} catch (error) {
  // A worker's failure reaches the app as the Worker's 'error' event with the coded error; exiting here would kill
  // the worker with a bare exit code 1 (Node runs the preload inside the worker's thread).
  if (!mainThread()) throw error;
  stop(error);
}
