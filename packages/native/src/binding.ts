import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** What build/Release/cwdkit.node (or a prebuild) exports; see src/cwdkit.cc. */
export interface Binding {
  /** getcwd(3) with a buffer that grows; throws ENOENT (syscall 'uv_cwd') when the directory was deleted. */
  getcwd(): string;
  /** chdir(2), then bump the generation. Returns 0 or the errno, and leaves everything as it was on failure. */
  chdir(directory: string): number;
  /** The process-wide generation, read through a call (the fallback for runtimes without external buffers). */
  generation(): number;
  /** Bumps the generation: every thread's next cwd() in cached mode reads the OS. */
  bump(): void;
  /** Starts a watcher thread polling getcwd every intervalMs; returns its id in this environment. */
  watch(intervalMs: number): number;
  /** Stops and joins a watcher thread; an unknown id is ignored. */
  unwatch(id: number): void;
  /** A no-op Node-API call, for the benchmarks. */
  noop(): void;
  /** 4 bytes over the generation itself, or undefined where the runtime refuses external memory. */
  generationBuffer: ArrayBuffer | undefined;
}

const require = createRequire(import.meta.url);
const load = require('node-gyp-build') as (directory: string) => Binding;

/** The addon for this thread: build/Release first, then prebuilds/<platform>-<arch> (node-gyp-build's order). */
export const binding: Binding = load(fileURLToPath(new URL('..', import.meta.url)));
