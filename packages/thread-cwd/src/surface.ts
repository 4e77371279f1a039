// The functions thread-cwd covers, as data (which module, which name, how it reports, which arguments are paths).
// Imports nothing: cover.ts reads it at install, and the enumeration test holds it against what the running Node
// exports (and the setup entry's list of names, early.ts, against it).

/** What a covered function returns that names a path, and how a real chdir would have spelled it. */
export type Returns = 'path' | 'dirents' | 'dir' | 'disposable' | 'file';
export interface Spec {
  /** The arguments that are paths relative to the cwd (symlink: only the link, never its target). */
  readonly paths: readonly number[];
  readonly returns?: Returns;
  /** mkdir: a recursive one creates parents, so the directory's identity is checked first (trap 13). */
  readonly creates?: true;
  /**
   * What it returns walks the joined path later, so the handle is held (see Own.uses): a watcher until it closes (a
   * recursive one adds subfolders by path); a Blob until it, its slices and its streams are garbage-collected (each
   * opens its file by path at each read: keepBlob). A Dir is held by fixDir (a recursive one opens subfolders by path).
   */
  readonly keeps?: 'watcher' | 'blob';
  /**
   * cp spells paths of its own from those it is given (a relative symlink's copy points at `resolve(dirname(src),
   * target)`, its filter is called with each source and destination, its messages name them): it is given the
   * directory's path (checked, see byPath), so that a copied link names the cwd as a real chdir's does.
   */
  readonly byPath?: true;
  /** Bun resolves its relative path against Bun's own cached cwd, not the kernel's: joined in kernel mode too. */
  readonly cached?: true;
}
/** iterator: fs/promises.watch, an async generator: as fs's, it reads the cwd at the first next(), not at the call. */
export type Kind = 'sync' | 'callback' | 'promise' | 'iterator';

const one: Spec = { paths: [0] };
const two: Spec = { paths: [0, 1] };
/** node:fs names whose callback form `name` and sync form `nameSync` take the same paths. */
const fsPairs: Record<string, Spec> = {
  access: one,
  appendFile: one,
  chmod: one,
  chown: one,
  copyFile: two,
  cp: { paths: [0, 1], byPath: true },
  exists: one,
  lchmod: one,
  lchown: one,
  link: two,
  lstat: one,
  lutimes: one,
  mkdir: { paths: [0], returns: 'path', creates: true },
  mkdtemp: { paths: [0], returns: 'path' },
  open: one,
  opendir: { paths: [0], returns: 'dir' },
  readdir: { paths: [0], returns: 'dirents' },
  readFile: one,
  readlink: one,
  rename: two,
  rm: one,
  rmdir: one,
  stat: one,
  statfs: one,
  symlink: { paths: [1] },
  truncate: one,
  unlink: one,
  utimes: one,
  writeFile: one,
};

/** Every covered function: where it lives, its name there, how it reports, and its paths. */
export interface Covered {
  readonly module: 'fs' | 'fs/promises' | 'child_process' | 'process' | 'net' | 'Bun';
  readonly name: string;
  readonly kind: Kind;
  readonly spec: Spec;
}

export const coveredFunctions: readonly Covered[] = [
  ...Object.entries(fsPairs).flatMap(([name, spec]): Covered[] => [
    { module: 'fs', name, kind: 'callback', spec },
    { module: 'fs', name: `${name}Sync`, kind: 'sync', spec },
  ]),
  { module: 'fs', name: 'openAsBlob', kind: 'promise', spec: { paths: [0], keeps: 'blob' } },
  { module: 'fs', name: 'openAsBlobSync', kind: 'sync', spec: { paths: [0], keeps: 'blob' } }, // Node 26
  { module: 'fs', name: 'watch', kind: 'sync', spec: { paths: [0], keeps: 'watcher' } },
  { module: 'fs', name: 'mkdtempDisposableSync', kind: 'sync', spec: { paths: [0], returns: 'disposable' } },
  { module: 'fs', name: 'realpath.native', kind: 'callback', spec: one },
  { module: 'fs', name: 'realpathSync.native', kind: 'sync', spec: one },
  ...Object.entries(fsPairs)
    .filter(([name]) => name !== 'exists')
    .map(([name, spec]): Covered => ({ module: 'fs/promises', name, kind: 'promise', spec })),
  { module: 'fs/promises', name: 'realpath', kind: 'promise', spec: one },
  { module: 'fs/promises', name: 'watch', kind: 'iterator', spec: one },
  { module: 'fs/promises', name: 'mkdtempDisposable', kind: 'promise', spec: { paths: [0], returns: 'disposable' } },
  // Their options.cwd (default: this thread's; a relative one joined to it), patched by cover() itself.
  ...['ChildProcess.prototype.spawn', 'spawnSync', 'execSync', 'execFileSync'].map(
    (name): Covered => ({ module: 'child_process', name, kind: 'sync', spec: { paths: [] } }),
  ),
  // A unix socket's relative path (http's socketPath reaches Socket.prototype.connect too), patched by cover() itself.
  ...['Server.prototype.listen', 'Socket.prototype.connect'].map(
    (name): Covered => ({ module: 'net', name, kind: 'sync', spec: { paths: [] } }),
  ),
  { module: 'process', name: 'loadEnvFile', kind: 'sync', spec: one },
  { module: 'process', name: 'dlopen', kind: 'sync', spec: { paths: [1] } },
];

/**
 * Bun, whose workers have kernel mode only: what else leaves the calling thread, or never asks the kernel. Its async
 * file calls run on its process-wide work pool, in the process's fs_struct (fs.promises.exists, Bun.file's reads,
 * Bun.write). realpath resolves a relative path against Bun's own cached cwd, which only its process.chdir moves, and
 * that refuses in a worker. fs.promises.watch returns Bun's watcher at once (no generator that waits for next()).
 */
export const bunCoveredFunctions: readonly Covered[] = [
  { module: 'fs', name: 'realpath', kind: 'callback', spec: { paths: [0], cached: true } },
  { module: 'fs', name: 'realpathSync', kind: 'sync', spec: { paths: [0], cached: true } },
  { module: 'fs/promises', name: 'exists', kind: 'promise', spec: one },
  { module: 'fs/promises', name: 'watch', kind: 'sync', spec: { paths: [0], cached: true } },
  // A BunFile reads (and writes, deletes) its path at each use, on the pool: held as openAsBlob's Blob.
  { module: 'Bun', name: 'file', kind: 'sync', spec: { paths: [0], keeps: 'blob', returns: 'file' } },
  { module: 'Bun', name: 'write', kind: 'promise', spec: one },
];

/** Bun's surface: node:fs's, each of its own entries in place of the one of the same name. */
export function bunSurface(): readonly Covered[] {
  const own = new Set(bunCoveredFunctions.map((entry) => `${entry.module}.${entry.name}`));
  return [...coveredFunctions.filter((entry) => !own.has(`${entry.module}.${entry.name}`)), ...bunCoveredFunctions];
}

/** What kernel mode covers: what leaves the calling thread, and on Bun what reads Bun's cached cwd or is Bun's own. */
export function kernelSurface(bun: boolean): readonly Covered[] {
  return bun
    ? bunSurface().filter((entry) => onPool(entry) || bunCoveredFunctions.includes(entry))
    : coveredFunctions.filter(onPool);
}

/**
 * Whether a covered function runs on the calling thread and keeps nothing that walks its path later: a sync call with
 * no watcher, Blob, Dir (a recursive one opens subfolders by path, from the pool too) or disposable to hold. In kernel
 * mode such a call needs no join (cp's too: its links then name the cwd as a real chdir's do).
 */
export function onThread(kind: Kind, { keeps, returns, cached }: Spec): boolean {
  return kind === 'sync' && keeps === undefined && returns !== 'dir' && returns !== 'disposable' && !cached;
}

/** What kernel mode covers: the functions of node:fs and fs/promises that do not run on the calling thread alone. */
export const onPool = (entry: Covered): boolean =>
  (entry.module === 'fs' || entry.module === 'fs/promises') && !onThread(entry.kind, entry.spec);

/** The object that holds `entry`'s function in `exported` (its module) and its key there; undefined where it has none. */
export function hostOf(entry: Covered, exported: object): [object, string] | undefined {
  const [name, inner] = entry.name.split('.') as [string, string | undefined];
  const host = inner === undefined ? exported : (exported as Record<string, unknown>)[name];
  const key = inner ?? name;
  if (typeof host !== 'function' && (typeof host !== 'object' || host === null)) return undefined;
  if (typeof (host as Record<string, unknown>)[key] !== 'function') return undefined;
  return [host as object, key];
}
