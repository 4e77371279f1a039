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

/**
 * Whether a load's error may pass (a stack overflow of that call, descriptors or memory short for a moment): the next
 * call loads again. Any other would come back at each try, at the cost of a whole selection each time.
 */
function passing(error: unknown): boolean {
  if (error instanceof RangeError) return true;
  const codes = ['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM', 'EINTR'];
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  return codes.includes(code as string) || codes.includes(cause?.code as string);
}

/** A slot the install must write and cannot (its object frozen since the stubs were put there). */
function notWritable(key: string): Error {
  return Object.assign(
    new TypeError(
      `cwdkit: the deferred install cannot replace ${key}: its object was frozen after the stub was put there`,
    ),
    { code: 'ERR_CWDKIT_INSTALL_REFUSED' },
  );
}

export interface Deferred {
  /** Puts the stub over `owner[key]` (a writable function); `loads`: its call runs the load first. */
  forward(owner: Record<string, unknown>, key: string, loads: boolean): void;
  /** Whether the load is still to come. */
  waiting(): boolean;
  /** Runs the load now if it waits, as the first call of a loading stub would (its error thrown, as there). */
  load(): void;
  /** The install will not wait after all: the stubs go (the caller installs now, its own way). */
  cancel(): void;
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
 * Waits with `load` in the thread's PENDING_REGISTER slot, `originals` kept for core first. `load` installs (and undoes
 * what it put in place itself if it throws). If it throws, that call (and installed()) throws its error, and the stubs
 * stay: after a passing error (EMFILE, a stack overflow) the next call loads again; any other every later call throws.
 * Never the runtime's answer under a strategy that was asked for and is missing.
 */
export function deferInstall(load: () => void, originals: RuntimeOriginals): Deferred {
  const slots = threadSlots();
  slots[Symbol.for('cwdkit.originals')] ??= Object.freeze(originals);
  const stubs: Stub[] = [];
  /** waiting: a call loads; loading: a load runs (a call from inside it answers as the runtime); loaded; cancelled. */
  let phase: 'waiting' | 'loading' | 'loaded' | 'cancelled' = 'waiting';
  /** A load's error that another try would meet again (not a passing one): thrown by every later call, as it was. */
  let failure: unknown;
  const run = () => {
    if (failure !== undefined) throw failure;
    if (phase !== 'waiting') return;
    // Plain reads and stores below, not calls, where a stub is taken away and put back: they cannot overflow the
    // stack (a first chdir made deep in recursion), so a stub is never left away while the load did not happen. A
    // slot that cannot be written (a frozen Deno) throws here, before anything moved.
    // A function put over a stub since start (Node's own worker_threads wraps process.chdir to tell workers, and
    // graceful-fs wraps both) calls the stub: it must stay, and install() must still see the runtime's own function,
    // or a failing chdir would call itself through the wrapper.
    const wrappers: unknown[] = [];
    for (let index = 0; index < stubs.length; index++) {
      const { owner, key } = stubs[index] as Stub;
      wrappers[index] = owner[key];
    }
    let removed = 0;
    phase = 'loading';
    try {
      for (; removed < stubs.length; removed++) {
        const { owner, key, descriptor } = stubs[removed] as Stub;
        try {
          owner[key] = descriptor.value;
        } catch {
          throw notWritable(key);
        }
        if (owner[key] !== descriptor.value) throw notWritable(key); // sloppy mode: a frozen slot ignores the store
      }
      load();
    } catch (error) {
      phase = 'waiting';
      for (let index = 0; index < removed; index++) {
        const { owner, key } = stubs[index] as Stub;
        owner[key] = wrappers[index];
      }
      if (!passing(error)) failure = error; // after the stores: this call may overflow too (then: a passing error)
      throw error;
    }
    phase = 'loaded';
    for (let index = 0; index < stubs.length; index++) {
      const entry = stubs[index] as Stub;
      // Where the stub was on top it stays away: the installed function holds the slot.
      if (wrappers[index] === entry.stub) continue;
      entry.target = entry.owner[entry.key] as Fn;
      entry.owner[entry.key] = wrappers[index];
    }
    slots[PENDING_REGISTER] = undefined;
  };
  const forward = (owner: Record<string, unknown>, key: string, loads: boolean) => {
    const descriptor = Object.getOwnPropertyDescriptor(owner, key);
    if (!descriptor || typeof descriptor.value !== 'function' || !descriptor.writable) return;
    const stub = {
      [key](this: unknown, ...args: unknown[]) {
        if (loads) run();
        // Until a load succeeds (and once cancelled), what the slot holds is the stub or a wrapper that calls it
        // (graceful-fs's): the runtime's own answers then.
        // A stub taken earlier and called after a cancel reaches what the slot holds then (the install at once).
        const to = (entry.target ??
          (phase === 'loaded' || phase === 'cancelled' ? owner[key] : descriptor.value)) as Fn;
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
  /**
   * Each stub away, its runtime's own function back. Under a wrapper a stub stays, and calls the runtime's own; a slot
   * frozen since cannot take it back (the install at once then says so, coded).
   */
  const cancel = () => {
    if (phase !== 'waiting') return;
    phase = 'cancelled';
    for (const entry of stubs) {
      if (entry.owner[entry.key] !== entry.stub) entry.target = entry.descriptor.value as Fn;
      else {
        try {
          entry.owner[entry.key] = entry.descriptor.value;
        } catch {}
      }
    }
    slots[PENDING_REGISTER] = undefined;
  };
  slots[PENDING_REGISTER] = run;
  return { forward, waiting: () => phase === 'waiting', load: run, cancel };
}
