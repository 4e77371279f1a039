import { fileURLToPath, pathToFileURL } from 'node:url';
import { codedError } from '@cwdkit/core';

// Not default imports: in the CommonJS build each copies the module's every property (esbuild's __toESM), and
// thread-cwd loads this at a worker's first chdir (issue #28 item 5).
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

/** What build/Release/cwdkit.node (or a prebuild) exports; see src/cwdkit.cc. */
export interface Binding {
  /** The cwd (getcwd(3) with a buffer that grows, GetCurrentDirectoryW on Windows), or the error number. */
  getcwd(): string | number;
  /** Registers a watch provider of this thread; its one watch thread polls at the shortest interval registered and
   *  bumps `generation[0]`. Throws ERR_CWDKIT_WATCH_THREAD when the OS refuses a thread. Returns the registration id. */
  watch(generation: Uint32Array, intervalMs: number): number;
  /** Drops a registration; the thread stops with the last one. An unknown id is ignored. */
  unwatch(id: number): void;
  /** Watch threads this addon file has started in the process (every thread's) and not yet joined. */
  watchThreads(): number;
  /** Polls completed by this thread's watch threads since the addon loaded in it. */
  watchPolls(): number;
  /** A no-op Node-API call, for the benchmarks. */
  noop(): void;
  /** Linux only, for @cwdkit/thread-cwd's kernel mode (see src/kernel.ts). */
  probeUnshare?(): number;
  unshareFs?(executable?: boolean): number;
  umask?(mask?: number): number;
  fchdir?(fd: number): number;
  routeThreadStarts?(): number;
  /** macOS only: pthread_fchdir_np(fd), the calling thread's own cwd (-1: the process's again); 0 or an errno. Compiled,
   *  not yet run: nothing calls it but its macOS test. */
  threadFchdir?(fd: number): number;
}

const NAME = '@cwdkit/native';

declare const module: { filename?: string; constructor?: { createRequire?: Require } } | undefined;
type Require = (from: string) => NodeJS.Require;

/**
 * A require() from `from`. In CommonJS, from this module's own Module class: node:module (where createRequire lives
 * too) loads the ES module loader, ~2 ms of a fresh CommonJS worker's start (thread-cwd's setup entry, issue #28).
 * Not named createRequire: a bundle's banner often declares that name (esbuild's users' `const require = ...`).
 */
function requireFrom(from: string): NodeJS.Require {
  const own = typeof module === 'object' ? module?.constructor?.createRequire : undefined;
  return (own ?? (process.getBuiltinModule('node:module') as { createRequire: Require }).createRequire)(from);
}

/**
 * The file this code runs from: dist/index.js, or a bundle that holds it. A CommonJS bundle (esbuild --format=cjs)
 * has no import.meta.url, but its `module` has the filename (`module`, not `__filename`: that is not defined where
 * a CJS copy was bundled into an ES module).
 */
const here: string =
  (import.meta as { url?: string }).url ?? pathToFileURL((typeof module === 'object' && module?.filename) || '.').href;

/**
 * Where the addon is: this package's own folder, or, when this code was bundled into an app (its folder is then the
 * app's, which holds no addon of ours, and may hold another one), the installed package as Node would find it from
 * the bundle. Undefined when a bundle finds none.
 */
function packageRoot(): string | undefined {
  const own = fileURLToPath(new URL('..', here));
  try {
    if (JSON.parse(fs.readFileSync(path.join(own, 'package.json'), 'utf8')).name === NAME) return own;
  } catch {
    // no package.json there: bundled
  }
  try {
    return path.dirname(requireFrom(here).resolve(`${NAME}/package.json`));
  } catch {
    return undefined;
  }
}

function unavailable(message: string, cause?: unknown): Error {
  return codedError(new Error(message, { cause }), 'ERR_CWDKIT_NATIVE_UNAVAILABLE');
}

/** The addon for this thread (node-gyp-build: build/Release, then prebuilds); throws ERR_CWDKIT_NATIVE_UNAVAILABLE. */
export function load(): Binding {
  const root = packageRoot();
  if (root === undefined) {
    throw unavailable(
      `${NAME} was bundled into ${fileURLToPath(here)}, and no installed ${NAME} (with its addon) is found from ` +
        'there: a bundle cannot hold a native addon. Mark the package external (esbuild `--external:@cwdkit/native`, ' +
        'Rollup/Vite `external`, webpack `externals`) and install it where the app runs, or, to fall back in the ' +
        "bundle, import it with `await import('@cwdkit/native')` in a try/catch and pass a JavaScript strategy " +
        'object (@cwdkit/sab-atomics) instead: a bundle cannot select strategies by name.',
    );
  }
  try {
    // The addon compiled at install, as node-gyp-build finds it first, without loading node-gyp-build (and node:os),
    // ~1.5 ms of a worker's first chdir under thread-cwd; unless its variables ask for a prebuild.
    const built = path.join(root, 'build', 'Release', 'cwdkit.node');
    const prebuildAsked = process.env.PREBUILDS_ONLY || process.env['@CWDKIT/NATIVE_PREBUILD'];
    if (!prebuildAsked && fs.existsSync(built)) return requireFrom(built)(built) as Binding;
    // node-gyp-build as installed with the package; build/Release first, then prebuilds/<platform>-<arch>.
    return (requireFrom(path.join(root, 'package.json'))('node-gyp-build') as (directory: string) => Binding)(root);
  } catch (cause) {
    const target = `${process.platform}-${process.arch}`;
    const reason = cause instanceof Error ? ` (${cause.message.split('\n')[0]})` : '';
    throw unavailable(
      `${NAME}: no addon loads for ${target}${reason}. There is no prebuilt binary for this platform and none ` +
        'was compiled at install. Install a C++ toolchain (Python 3, make and a C++17 compiler; on Windows, Visual ' +
        'Studio Build Tools) and run `npm rebuild @cwdkit/native` (allow its install script: npm `allowScripts`), or ' +
        'let cwdkit fall back to a JavaScript strategy: "strategy": ["native", "sab-atomics"].',
      cause,
    );
  }
}
