// Replacing functions on builtin modules, all or nothing: the fs cover (cover.ts, in a worker) and the Worker cover
// (workers.ts, in every installed thread, the main thread included).
import { codedError, syncBuiltinExports } from '@cwdkit/core';

export type Fn = (this: unknown, ...args: unknown[]) => unknown;

interface Patch {
  readonly owner: object;
  readonly key: string;
  readonly value: unknown;
}

/**
 * Replaces functions all or nothing: when one cannot be replaced (a frozen or read-only property), `replace` puts back
 * the ones it already replaced and throws ERR_CWDKIT_INSTALL_REFUSED naming it. `undo` puts every original back.
 */
export function patcher(): {
  replace: (owner: object, key: string, make: (original: Fn) => Fn, label?: string) => void;
  undo: () => void;
} {
  const patches: Patch[] = [];
  const undo = () => {
    for (const { owner, key, value } of patches.reverse()) (owner as Record<string, unknown>)[key] = value;
    patches.length = 0;
    syncBuiltinExports();
  };
  const replace = (owner: object, key: string, make: (original: Fn) => Fn, label = key) => {
    const slots = owner as Record<string, unknown>;
    const original = slots[key] as Fn;
    const wrapper = make(original);
    try {
      slots[key] = wrapper;
    } catch {}
    // A read-only property throws in strict code and is silently kept in sloppy code (the CommonJS build): both here.
    if (slots[key] !== wrapper) {
      undo();
      throw codedError(
        new Error(
          `install(): thread-cwd cannot cover ${label} in this runtime (it cannot be replaced): nothing was covered`,
        ),
        'ERR_CWDKIT_INSTALL_REFUSED',
      );
    }
    patches.push({ owner, key, value: original });
  };
  return { replace, undo };
}
