import { createRequire } from 'node:module';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { codedError } from '@cwdkit/core';

/** What build/Release/cwdkit.node (or a prebuild) exports; see src/cwdkit.cc. */
export interface Binding {
  /** The cwd (getcwd(3) with a buffer that grows, GetCurrentDirectoryW on Windows), or the error number. */
  getcwd(): string | number;
  /** Registers a watch provider of this thread; its one watch thread polls at the shortest interval registered and
   *  bumps `generation[0]`. Throws ERR_CWDKIT_WATCH_THREAD when the OS refuses a thread. Returns the registration id. */
  watch(generation: Uint32Array, intervalMs: number): number;
  /** Drops a registration; the thread stops with the last one. An unknown id is ignored. */
  unwatch(id: number): void;
  /** A no-op Node-API call, for the benchmarks. */
  noop(): void;
}

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

function load(): Binding {
  const require = createRequire(import.meta.url);
  try {
    // build/Release first, then prebuilds/<platform>-<arch> (node-gyp-build's order).
    return (require('node-gyp-build') as (directory: string) => Binding)(packageRoot);
  } catch (cause) {
    const target = `${process.platform}-${process.arch}`;
    const reason = cause instanceof Error ? ` (${cause.message.split('\n')[0]})` : '';
    const message =
      `@cwdkit/native: no addon loads for ${target}${reason}. There is no prebuilt binary for this platform and none ` +
      'was compiled at install. Install a C++ toolchain (Python 3, make and a C++17 compiler; on Windows, Visual ' +
      'Studio Build Tools) and run `npm rebuild @cwdkit/native` (allow its install script: npm `allowScripts`), or ' +
      'let cwdkit fall back to a JavaScript strategy: "strategy": ["native", "sab-atomics"].';
    throw codedError(new Error(message, { cause }), 'ERR_CWDKIT_NATIVE_UNAVAILABLE');
  }
}

/** The addon for this thread. */
export const binding: Binding = load();
