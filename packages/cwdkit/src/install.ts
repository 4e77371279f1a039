import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import {
  type CwdCapabilities,
  type CwdProvider,
  chdirThroughRuntime,
  codedError,
  installHook,
  isClosed,
  isMainThread,
  resolverFor,
  runtime,
  syncBuiltinExports,
  threadState,
} from '@cwdkit/core';
import { loadPendingRegister } from './defaults.js';

type Key = 'cwd' | 'chdir' | 'resolve';

interface Slot {
  readonly owner: object;
  readonly key: Key;
  readonly descriptor: PropertyDescriptor | undefined;
  readonly original: (...args: unknown[]) => unknown;
}

/** Whether this copy runs in a vm context (jest's test files): objects Node made are then another realm's. */
const vmContext = Object.getPrototypeOf(process.versions) !== Object.prototype;

/** One record per thread, shared by the ESM and CJS copies of core, so that a second install is seen by both. */
const state = threadState('install', () => ({
  installed: undefined as string | undefined,
  capabilities: undefined as CwdCapabilities | undefined,
  /** The installed provider itself: a hand-made one with no strategy name is the same strategy only as itself. */
  provider: undefined as CwdProvider | undefined,
}));

function targets(threadScoped: boolean): [object, Key, string][] {
  // `path` is path.posix on POSIX and path.win32 on Windows (the same object), so this is the one path.resolve.
  const list: [object, Key, string][] = [
    [process, 'cwd', 'process.cwd'],
    [path, 'resolve', 'path.resolve'],
  ];
  // A worker keeps the runtime's refusal (and its `.disabled`), which libraries test before they chdir, unless the
  // strategy gives each thread a cwd of its own.
  if (isMainThread || threadScoped) list.push([process, 'chdir', 'process.chdir']);
  const deno = (globalThis as { Deno?: object }).Deno;
  if (runtime === 'deno' && deno) list.push([deno, 'cwd', 'Deno.cwd'], [deno, 'chdir', 'Deno.chdir']);
  return list;
}

function capture([owner, key, label]: [object, Key, string]): Slot {
  const descriptor = Object.getOwnPropertyDescriptor(owner, key);
  const original = (owner as Record<string, unknown>)[key];
  const writable =
    descriptor === undefined ? Object.isExtensible(owner) : descriptor.configurable || descriptor.writable;
  if (typeof original !== 'function' || descriptor?.get || descriptor?.set || !writable) {
    throw codedError(new Error(`install(): ${label} cannot be replaced in this runtime`), 'ERR_CWDKIT_INSTALL_REFUSED');
  }
  return { owner, key, descriptor, original: original as Slot['original'] };
}

/** A failure the provider met in the OS (it has a `syscall`), not a mistake in the arguments. */
function isOsError(error: unknown): boolean {
  return typeof (error as { syscall?: unknown } | null)?.syscall === 'string';
}

/**
 * A failure the runtime's own chdir words itself, with no side effect: the OS's, or an argument that is not a string
 * (refused before anything moves). Not a NUL byte: Node's own chdir cuts the path there and moves.
 */
function runtimeWords(error: unknown): boolean {
  return isOsError(error) || (error as { code?: unknown } | null)?.code === 'ERR_INVALID_ARG_TYPE';
}

/** The name of the strategy install() put in place on this thread, or undefined. */
export function installed(): string | undefined {
  loadPendingRegister();
  return state.installed;
}

/** What makes two providers' promises differ, e.g. 'externalChange "never" there, "immediate" here', or ''. */
function capabilityDifference(installed: CwdCapabilities | undefined, given: CwdCapabilities | undefined): string {
  const keys = [...new Set([...Object.keys(installed ?? {}), ...Object.keys(given ?? {})])].sort();
  const value = (capabilities: CwdCapabilities | undefined, key: string) =>
    JSON.stringify((capabilities as Record<string, unknown> | undefined)?.[key]) ?? 'none';
  return keys
    .filter((key) => value(installed, key) !== value(given, key))
    .map((key) => `${key} ${value(installed, key)} there, ${value(given, key)} here`)
    .join('; ');
}

/** "a sab-atomics", "an unnamed". */
const an = (name: string, start = false) => `${start ? 'A' : 'a'}${/^[aeiou]/.test(name) ? 'n' : ''} ${name}`;

/** install() while another provider is installed: the same strategy with the same promises is already done. */
function alreadyInstalled(provider: CwdProvider): () => void {
  const strategy = provider.strategy ?? 'unnamed';
  const difference = capabilityDifference(state.capabilities, provider.capabilities);
  const named = typeof provider.strategy === 'string' && typeof state.provider?.strategy === 'string';
  const same = named ? provider.strategy === state.installed : provider === state.provider;
  if (same && difference === '') return function uninstall(): void {};
  const given = same ? `another ${strategy} one with other capabilities (${difference})` : `${an(strategy)} one`;
  const fix = same ? 'give it the same options (cwdkit.config.json)' : `let it choose ${strategy} (CWDKIT_STRATEGY)`;
  throw codedError(
    new Error(
      `${an(state.installed ?? '', true)} CwdProvider is already installed on this thread, and install() was given ${given}. ` +
        `If the cwdkit/register flag installed it (--import, --preload or NODE_OPTIONS), remove the flag or ${fix}; ` +
        'otherwise call the uninstall() that the first install() returned before installing another.',
    ),
    'ERR_CWDKIT_ALREADY_INSTALLED',
  );
}

/**
 * Makes `provider` the process-wide answer: replaces process.cwd, process.chdir and path.resolve (and Deno.cwd /
 * Deno.chdir on Deno), so that every library uses it. path.resolve becomes core's resolver, identical to the
 * runtime's own (its errors, `length` and `name` included) and several times faster; on Node, ESM named imports
 * (`import { resolve } from 'node:path'`) follow too (module.syncBuiltinESMExports()). Returns uninstall(), which puts
 * the exact original functions back where ours are still in place (a function put over ours since stays).
 *
 * Installing a provider of the strategy that is already installed, with the same capabilities (as an app does when
 * the cwdkit/register flag installed it first), changes nothing and returns an uninstall() that does nothing: the
 * installed one stays, and answers exactly as this one would (providers of one strategy share their state). Another
 * strategy, or other capabilities, throws ERR_CWDKIT_ALREADY_INSTALLED.
 */
export function install(provider: CwdProvider): () => void {
  if (typeof provider?.cwd !== 'function' || typeof provider.chdir !== 'function') {
    throw codedError(new TypeError('install() needs a CwdProvider (with cwd() and chdir())'), 'ERR_INVALID_ARG_TYPE');
  }
  loadPendingRegister(); // the flag's strategy, deferred at start, is installed first: install() then meets it
  if (isClosed(provider)) {
    throw codedError(
      new Error(`install() needs an open CwdProvider: this ${provider.strategy} provider was closed`),
      'ERR_CWDKIT_CLOSED',
    );
  }
  if (state.installed !== undefined) return alreadyInstalled(provider);
  // A thread-scoped chdir in a worker answers with its own errors: the runtime's original there only refuses.
  const threadScoped = provider.capabilities?.chdirScope === 'thread';
  const ownErrors = threadScoped && !isMainThread;
  const slots = targets(threadScoped).map(capture); // checks every slot before the first is touched

  let active = true;
  // A library that wraps process.cwd while we are installed (graceful-fs does) keeps a reference to our function;
  // after uninstall that reference must still work, so each replacement falls back to its original.
  const cwdReplacement = ({ original }: Slot) =>
    function cwd(this: unknown): string {
      if (!active) return original.call(this) as string;
      try {
        return provider.cwd();
      } catch (error) {
        // The runtime's own error class and wording (Deno.errors.NotFound, Bun's messages) for an OS failure.
        if (isOsError(error)) original.call(this);
        throw error;
      }
    };
  const chdirReplacement = ({ owner, original }: Slot) =>
    function chdir(this: unknown, directory: string | URL): void {
      // core's osChdir calling through process.chdir (to reach Node's worker_threads wrapper): step aside.
      if (!active || chdirThroughRuntime()) return void original.call(this, directory);
      try {
        // Deno.chdir also takes a file: URL; process.chdir does not, and keeps refusing one.
        provider.chdir(
          owner !== process && directory instanceof URL ? fileURLToPath(directory) : (directory as string),
        );
      } catch (error) {
        if (ownErrors || !runtimeWords(error)) throw error;
        original.call(this, directory); // throws the runtime's own error class and wording
        provider.invalidate(); // it worked this time (a race): the provider must not keep the old answer
      }
    };
  const processCwd = cwdReplacement(slots[0] as Slot); // targets() lists process.cwd first
  // path.resolve: core's resolver, identical to the runtime's own. Node's and Deno's own read process.cwd at each
  // call, so a test's fake of it (vi.spyOn, an assignment) or a wrapper put over ours moves them: ours reads whatever
  // process.cwd is at the call too. Bun's own reads its native cache and never calls process.cwd, and code in a vm
  // context (jest's test files) gets a copy of process that the runtime's own never reads: there ours reads the
  // provider, as before. After uninstall() a copy someone kept reads the original process.cwd. It looks like the
  // original to code that inspects it.
  const readsProcessCwd = runtime !== 'bun' && !vmContext;
  const resolveReplacement = ({ original }: Slot) => {
    const resolve = readsProcessCwd ? resolverFor(() => process.cwd(), { anyCwd: true }) : resolverFor(processCwd);
    for (const key of ['length', 'name']) {
      const descriptor = Object.getOwnPropertyDescriptor(original, key);
      if (descriptor) Object.defineProperty(resolve, key, descriptor);
    }
    return resolve;
  };
  const replacement = (slot: Slot) => {
    if (slot.key === 'resolve') return resolveReplacement(slot);
    if (slot.key === 'chdir') return chdirReplacement(slot);
    return slot.owner === process ? processCwd : cwdReplacement(slot);
  };
  const values = slots.map(replacement);
  const restore = () => {
    slots.forEach(({ owner, key, descriptor }, index) => {
      // A function put over ours since stays (it calls ours, which now calls the original): dropping Node's
      // worker_threads wrapper of process.chdir would stop every later chdir from reaching its workers.
      if ((owner as Record<string, unknown>)[key] !== values[index]) return;
      if (descriptor) Object.defineProperty(owner, key, descriptor);
      else delete (owner as Record<string, unknown>)[key];
    });
  };
  for (const [index, slot] of slots.entries()) {
    const value = values[index];
    if (slot.descriptor) Object.defineProperty(slot.owner, slot.key, { ...slot.descriptor, value });
    else Object.defineProperty(slot.owner, slot.key, { value, writable: true, configurable: true, enumerable: true });
  }
  // What only this strategy needs (thread-cwd patches fs): a failure there leaves everything as it was.
  let undoStrategy: (() => void) | undefined;
  try {
    undoStrategy = provider[installHook]?.();
  } catch (error) {
    restore();
    throw error;
  }
  syncBuiltinExports();
  state.installed = provider.strategy ?? 'unnamed';
  state.capabilities = provider.capabilities;
  state.provider = provider;

  return function uninstall(): void {
    if (!active) return;
    active = false;
    undoStrategy?.();
    restore();
    syncBuiltinExports();
    state.installed = undefined;
    state.capabilities = undefined;
    state.provider = undefined;
  };
}
