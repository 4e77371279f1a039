// An install deferred to the thread's first use, and the stubs that wait for it: cwdkit/register's wait (register.ts)
// and @cwdkit/thread-cwd's setup entry in a Node worker (its kernel mode). Loads nothing: it runs at start.
//
// Until the first chdir nothing needs a strategy: process.cwd() and path.resolve are the runtime's own, right. So the
// one stub that loads is chdir's; cwd's stub is there so that a function put over process.cwd before the first chdir
// (a test's vi.spyOn, a wrapper) stays on top at the load, as it would over an install at start: the stub under it then
// forwards to the installed one. The first stub call that loads, or the first call of cwdkit's install() or
// installed() (they run the PENDING_REGISTER slot), runs `load`, which installs.
import { PENDING_REGISTER, threadSlots } from './defaults.js';

type Fn = (...args: never[]) => unknown;

interface Stub {
  readonly owner: Record<string, unknown>;
  readonly key: string;
  readonly descriptor: PropertyDescriptor;
  readonly stub: Fn;
  /** After the load, when a wrapper sits over the stub: the installed function the stub forwards to. */
  target: Fn | undefined;
}

/** Whether a strategy is installed on this thread (install.ts's record, read without loading it) or a load waits. */
export function installedOrWaiting(): boolean {
  const slots = threadSlots();
  const record = slots[Symbol.for('cwdkit.install')] as { installed?: string } | undefined;
  return record?.installed !== undefined || slots[PENDING_REGISTER] !== undefined;
}

export interface Deferred {
  /** Puts the stub over `owner[key]` (a writable function); `loads`: its call runs the load first. */
  forward(owner: Record<string, unknown>, key: string, loads: boolean): void;
  /** Whether the load is still to come. */
  waiting(): boolean;
  /** Runs the load now if it waits, as the first call of a loading stub would (its error thrown, as there). */
  load(): void;
}

/**
 * The runtime's own process.cwd and process.chdir (Deno's own too), for core (its threadState 'originals'): core loads
 * after the stubs are in place, and after any library that wrapped one of them, and must still call the runtime's own
 * (a wrapper calls the stub).
 */
export interface RuntimeOriginals {
  readonly processCwd: unknown;
  readonly processChdir: unknown;
  readonly denoCwd: unknown;
  readonly denoChdir: unknown;
}

/**
 * Waits with `load` in the thread's PENDING_REGISTER slot, `originals` kept for core first. `load` installs (and undoes what it put in place itself if
 * it throws). If it throws, that call and every later stub call and installed() throw its error: never the runtime's
 * answer under a strategy that was asked for and is missing.
 */
export function deferInstall(load: () => void, originals: RuntimeOriginals): Deferred {
  const slots = threadSlots();
  slots[Symbol.for('cwdkit.originals')] ??= Object.freeze(originals);
  const stubs: Stub[] = [];
  let failure: unknown;
  let waiting = true;
  const run = () => {
    if (failure !== undefined) throw failure;
    if (!waiting) return;
    waiting = false;
    // A function put over a stub since start (Node's own worker_threads wraps process.chdir to tell workers, and
    // graceful-fs wraps both) calls the stub: it must stay, and install() must still see the runtime's own function,
    // or a failing chdir would call itself through the wrapper.
    const wrappers = stubs.map(({ owner, key }) => owner[key]);
    for (const { owner, key, descriptor } of stubs) Object.defineProperty(owner, key, descriptor);
    try {
      load();
    } catch (error) {
      for (let index = 0; index < stubs.length; index++) {
        const { owner, key, descriptor } = stubs[index] as Stub;
        Object.defineProperty(owner, key, { ...descriptor, value: wrappers[index] });
      }
      // A stack overflow is that call's (a first chdir made deep in recursion), not the load's: the next call loads.
      if (error instanceof RangeError) waiting = true;
      else failure = error;
      throw error;
    }
    stubs.forEach((entry, index) => {
      const { owner, key, descriptor, stub } = entry;
      if (wrappers[index] === stub) return; // the stub forwards to what the slot holds now: the installed function
      entry.target = owner[key] as Fn;
      Object.defineProperty(owner, key, { ...descriptor, value: wrappers[index] });
    });
    slots[PENDING_REGISTER] = undefined;
  };
  const forward = (owner: Record<string, unknown>, key: string, loads: boolean) => {
    const descriptor = Object.getOwnPropertyDescriptor(owner, key);
    if (!descriptor || typeof descriptor.value !== 'function' || !descriptor.writable) return;
    const stub = {
      [key](this: unknown, ...args: unknown[]) {
        if (loads) run();
        // Until a load succeeds, what the slot holds is the stub or a wrapper that calls it (graceful-fs's): the
        // runtime's own answers then.
        const to = (entry.target ?? (waiting || failure !== undefined ? descriptor.value : owner[key])) as Fn;
        return (to === stub ? descriptor.value : to).apply(this, args as never[]);
      },
    }[key] as Fn;
    // Named and shaped like the runtime's own (Node's are 'wrappedCwd' and 'wrappedChdir' on the main thread):
    // code that inspects them sees what it expects.
    for (const property of ['name', 'length']) {
      Object.defineProperty(stub, property, { value: (descriptor.value as Fn)[property as 'name' | 'length'] });
    }
    const entry: Stub = { owner, key, descriptor, stub, target: undefined };
    stubs.push(entry);
    Object.defineProperty(owner, key, { ...descriptor, value: stub });
  };
  slots[PENDING_REGISTER] = run;
  return { forward, waiting: () => waiting, load: run };
}
