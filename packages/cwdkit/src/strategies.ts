import { basename, dirname, isAbsolute, join, resolve as resolvePath, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exists, listDirectory, projectRoot, readJsonFile } from './files.js';

/** An installed package that declares a strategy name in its package.json: `"cwdkit": {"strategy": "<name>"}`. */
export interface DeclaredStrategy {
  readonly name: string;
  readonly packageName: string;
  readonly directory: string;
}

/** Where strategy packages are looked for inside a node_modules folder: `@cwdkit/*`, `cwdkit-*`, `@scope/cwdkit-*`. */
function candidatePackages(nodeModules: string): string[] {
  const found: string[] = [];
  for (const entry of listDirectory(nodeModules)) {
    if (entry.startsWith('cwdkit-')) found.push(entry);
    else if (entry.startsWith('@')) {
      for (const inner of listDirectory(join(nodeModules, entry))) {
        if (entry === '@cwdkit' || inner.startsWith('cwdkit-')) found.push(`${entry}/${inner}`);
      }
    }
  }
  return found.sort();
}

function declaredName(directory: string): string | undefined {
  const file = join(directory, 'package.json');
  if (!exists(file)) return undefined;
  try {
    const manifest = readJsonFile(file) as { cwdkit?: { strategy?: unknown } } | null;
    const name = manifest?.cwdkit?.strategy;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined; // a broken unrelated package does not break selection
  }
}

/**
 * Every strategy declared by a package in these node_modules folders, the first declaration of a name winning
 * (the folders come nearest first).
 */
export function declaredStrategies(folders: readonly string[]): Map<string, DeclaredStrategy> {
  const found = new Map<string, DeclaredStrategy>();
  for (const nodeModules of folders) {
    for (const packageName of candidatePackages(nodeModules)) {
      const directory = join(nodeModules, packageName);
      const name = declaredName(directory);
      if (name !== undefined && !found.has(name)) found.set(name, { name, packageName, directory });
    }
  }
  return found;
}

declare const module: { filename?: unknown; require?: (id: string) => unknown } | undefined;

/**
 * This file, or undefined when a bundle does not say: import.meta.url in the ESM build, the CommonJS module's filename
 * in the CJS build (no tsup shim: its `__filename` at load crashes a CJS copy bundled into an ES module; esbuild's
 * wrapper `module` of such a copy has no filename).
 */
function ownFile(): string | undefined {
  try {
    const url = (import.meta as { url?: string }).url;
    if (url !== undefined) return fileURLToPath(url);
    return typeof module === 'object' && typeof module?.filename === 'string' ? module.filename : undefined;
  } catch {
    return undefined;
  }
}

/**
 * require() of an absolute file: the CommonJS build's own (the preload's: node:module is not loaded at start-up for
 * it), else one from node:module.
 */
export function requireFile(file: string): unknown {
  if (typeof module === 'object' && typeof module?.require === 'function') return module.require(file);
  const { createRequire } = (
    process as unknown as { getBuiltinModule(id: string): { createRequire(from: string): (id: string) => unknown } }
  ).getBuiltinModule('node:module');
  return createRequire(file)(file);
}

/**
 * The cwdkit package this code runs from, or undefined when it was bundled into an app (then it has no
 * node_modules of its own, and strategies must be passed as objects).
 */
export const ownPackage: string | undefined = (() => {
  const file = ownFile();
  if (file === undefined) return undefined;
  const directory = dirname(dirname(file)); // dist/index.js → the package
  try {
    const manifest = readJsonFile(join(directory, 'package.json')) as { name?: unknown };
    return manifest.name === 'cwdkit' ? directory : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * The node_modules folders that may serve a bare name, in order: the project root's own, then those of the package
 * doing the selecting up to the project it is installed in (never above it). Never the cwd's other ancestors,
 * NODE_PATH or $HOME.
 */
export function strategyFolders(selecting: string | undefined, project: string | undefined): string[] {
  const folders: string[] = project === undefined ? [] : [join(project, 'node_modules')];
  if (selecting !== undefined) {
    const parts = selecting.split(sep);
    const first = parts.indexOf('node_modules');
    // Installed: the project is the folder that holds the first node_modules. In a source checkout: its root.
    const top = first > 0 ? parts.slice(0, first).join(sep) || sep : (projectRoot(dirname(selecting)) ?? selecting);
    for (let dir = selecting; ; dir = dirname(dir)) {
      if (basename(dir) !== 'node_modules') folders.push(join(dir, 'node_modules'));
      if (dir === top || dirname(dir) === dir) break;
    }
  }
  return [...new Set(folders)];
}

/** A path the user wrote on purpose (`./`, `../`, absolute, `file:`): the only module specifiers cwdkit loads. */
export const isExplicitPath = (request: string) => /^(\.\.?[/\\]|\/|file:)/.test(request) || isAbsolute(request);

type Conditions = readonly string[];

function pickTarget(target: unknown, conditions: Conditions): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const entry of target) {
      const found = pickTarget(entry, conditions);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (target === null || typeof target !== 'object') return undefined;
  for (const [condition, value] of Object.entries(target)) {
    if (conditions.includes(condition)) {
      const found = pickTarget(value, conditions);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The file a package's main entry points to for `import` (or `require`), read from its package.json "exports". */
export function packageEntry(directory: string, kind: 'import' | 'require'): string {
  const manifest = readJsonFile(join(directory, 'package.json')) as {
    exports?: unknown;
    main?: unknown;
  };
  const conditions = [kind, 'node', 'default'];
  let { exports } = manifest;
  if (exports !== null && typeof exports === 'object' && !Array.isArray(exports) && '.' in exports) {
    exports = (exports as Record<string, unknown>)['.'];
  }
  const target =
    exports !== undefined
      ? pickTarget(exports, conditions)
      : typeof manifest.main === 'string'
        ? manifest.main
        : 'index.js';
  if (target === undefined) throw new Error(`${directory}/package.json exports nothing for "${kind}"`);
  return resolvePath(directory, target);
}
