// Bun's kernel mode: what of Bun's own API the kernel does not move with a worker's thread. Bun.spawn, Bun.$ and
// sync fs run on the thread and follow it; what runs on Bun's work pool is in surface.ts (bunCoveredFunctions). Bun's
// Glob and resolver read Bun's own cached cwd, which only Bun's process.chdir moves (refused in a worker): they are
// given the thread's cwd, as process.cwd() says it, the way Bun gives them its cached one.
import path from 'node:path';
import process from 'node:process';
import type { patcher } from './patch.js';
import { state } from './state.js';

export const bun = (process.versions as { bun?: string }).bun !== undefined;

interface BunApi {
  Glob: { prototype: Record<'scan' | 'scanSync', (options?: unknown) => unknown> };
  resolveSync(specifier: string, from: string): string;
  resolve(specifier: string, from: string): Promise<string>;
}

/** `from` (a directory, relative to the cwd) as Bun would read it with its cached cwd where that were this thread's. */
const fromHere = (from: unknown): unknown =>
  state.own !== undefined && typeof from === 'string' ? path.resolve(process.cwd(), from) : from;

/** Bun.Glob's scans and Bun's resolver, given this thread's cwd where they would take Bun's cached one. */
export function coverBun(replace: ReturnType<typeof patcher>['replace']): void {
  const api = (globalThis as unknown as { Bun: BunApi }).Bun;
  for (const name of ['scan', 'scanSync'] as const) {
    replace(
      api.Glob.prototype,
      name,
      (original) =>
        function (this: unknown, options?: unknown) {
          if (state.own === undefined) return original.call(this, options);
          // A string is the cwd itself; an object's cwd defaults to the cwd.
          if (typeof options === 'string' || options === undefined)
            return original.call(this, fromHere(options ?? '.'));
          if (options === null || typeof options !== 'object') return original.call(this, options);
          const { cwd } = options as { cwd?: unknown };
          return original.call(this, { ...options, cwd: fromHere(cwd ?? '.') });
        },
      `Bun.Glob.prototype.${name}`,
    );
  }
  for (const name of ['resolveSync', 'resolve'] as const) {
    replace(api, name, (original) => resolveFrom(original), `Bun.${name}`);
  }
}

/**
 * Bun's resolver with a relative `from` starts from its cached cwd, whatever that `from` says (`'sub'` and `'..'`
 * alike): it is given this thread's cwd instead, and its error says `from` as given.
 */
function resolveFrom(original: (...args: unknown[]) => unknown) {
  return function (this: unknown, specifier: unknown, from: unknown, ...rest: unknown[]) {
    if (state.own === undefined || typeof from !== 'string' || path.isAbsolute(from)) {
      return original.call(this, specifier, from, ...rest);
    }
    const cwd = process.cwd();
    const asGiven = (error: unknown) => {
      if (error instanceof Error) {
        const message = error.message.replace(` from ${cwd}`, ` from ${from}`);
        Object.defineProperty(error, 'message', { value: message, configurable: true, writable: true });
        Object.defineProperty(error, 'referrer', { value: from, configurable: true, writable: true });
      }
      return error;
    };
    let result: unknown;
    try {
      result = original.call(this, specifier, cwd, ...rest);
    } catch (error) {
      throw asGiven(error);
    }
    return result instanceof Promise
      ? result.catch((error: unknown) => {
          throw asGiven(error);
        })
      : result;
  };
}
