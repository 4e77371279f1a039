// cwdkit/defer's stubs on an object of the test's own (the runtime's process and Deno are covered by register.test.ts
// and thread-cwd's early and deno tests): what a failed load leaves, how often a load runs, a frozen slot, cancel().
// Each test ends its deferral (a load that succeeded, or cancel()), so this thread's PENDING_REGISTER slot is clear.
import { afterEach, describe, expect, it } from 'vitest';
import { type Deferred, deferInstall } from '../src/defer.js';

const originals = { processCwd: undefined, processChdir: undefined, denoCwd: undefined, denoChdir: undefined };

/** An object with a chdir of its own that records its calls, stubbed by a deferral whose load runs `load`. */
function stubbed(load: (owner: { chdir: (to: string) => string }) => void) {
  const calls: string[] = [];
  const own = (to: string) => {
    calls.push(`own ${to}`);
    return `own ${to}`;
  };
  const owner = { chdir: own };
  let loads = 0;
  const deferred = deferInstall(() => {
    loads++;
    load(owner);
  }, originals);
  deferred.forward(owner as unknown as Record<string, unknown>, 'chdir', true);
  return { owner, own, calls, deferred, loads: () => loads };
}

let open: Deferred | undefined;
afterEach(() => open?.cancel());

const attempt = (fn: () => unknown) => {
  try {
    return fn();
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).message;
  }
};

describe('cwdkit/defer', () => {
  it('a load that fails for good: every later call throws its error, and the load runs once (not a selection a call)', () => {
    const t = stubbed(() => {
      throw Object.assign(new Error('not installed'), { code: 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED' });
    });
    open = t.deferred;
    const seen = Array.from({ length: 50 }, () => attempt(() => t.owner.chdir('a')));
    expect(new Set(seen)).toEqual(new Set(['ERR_CWDKIT_STRATEGY_NOT_INSTALLED']));
    expect(t.loads()).toBe(1);
    expect(t.calls).toEqual([]); // never the runtime's own chdir
  });

  it('a load that fails for a moment (EMFILE, a stack overflow): the stub stays, and the next call loads again', () => {
    const errors = [Object.assign(new Error('too many open files'), { code: 'EMFILE' }), new RangeError('stack')];
    const t = stubbed((owner) => {
      const error = errors.shift();
      if (error) throw error;
      owner.chdir = (to: string) => `installed ${to}`;
    });
    open = t.deferred;
    expect([attempt(() => t.owner.chdir('a')), attempt(() => t.owner.chdir('b')), t.owner.chdir('c')]).toEqual([
      'EMFILE',
      'stack',
      'installed c',
    ]);
    expect(t.loads()).toBe(3);
    expect(t.calls).toEqual([]);
  });

  it('a slot frozen since the stub went there: ERR_CWDKIT_INSTALL_REFUSED at each call, the load never run', () => {
    const t = stubbed(() => {});
    open = t.deferred;
    Object.freeze(t.owner);
    expect([attempt(() => t.owner.chdir('a')), attempt(() => t.owner.chdir('b'))]).toEqual([
      'ERR_CWDKIT_INSTALL_REFUSED',
      'ERR_CWDKIT_INSTALL_REFUSED',
    ]);
    expect(t.loads()).toBe(0);
    expect(t.calls).toEqual([]);
  });

  it('cancel(): the own function back in the slot; a stub taken before reaches what the slot holds later', () => {
    const t = stubbed(() => {});
    const taken = t.owner.chdir;
    t.deferred.cancel();
    expect(t.owner.chdir).toBe(t.own);
    t.owner.chdir = (to: string) => `installed at once ${to}`;
    expect(taken('a')).toBe('installed at once a');
    expect(t.loads()).toBe(0);
  });
});
