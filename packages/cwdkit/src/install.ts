import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { type CwdProvider, codedError, installHook, isClosed, isMainThread, runtime, threadState } from '@cwdkit/core';

interface Slot {
  readonly owner: object;
  readonly key: 'cwd' | 'chdir';
  readonly descriptor: PropertyDescriptor | undefined;
  readonly original: (...args: unknown[]) => unknown;
}

/** One record per thread, shared by the ESM and CJS copies of core, so that a second install is seen by both. */
const state = threadState('install', () => ({ installed: undefined as string | undefined }));

function targets(threadScoped: boolean): [object, 'cwd' | 'chdir', string][] {
  const list: [object, 'cwd' | 'chdir', string][] = [[process, 'cwd', 'process.cwd']];
  // A worker keeps the runtime's refusal (and its `.disabled`), which libraries test before they chdir, unless the
  // strategy gives each thread a cwd of its own.
  if (isMainThread || threadScoped) list.push([process, 'chdir', 'process.chdir']);
  const deno = (globalThis as { Deno?: object }).Deno;
  if (runtime === 'deno' && deno) list.push([deno, 'cwd', 'Deno.cwd'], [deno, 'chdir', 'Deno.chdir']);
  return list;
}

function capture([owner, key, label]: [object, 'cwd' | 'chdir', string]): Slot {
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

/** The name of the strategy install() put in place on this thread, or undefined. */
export function installed(): string | undefined {
  return state.installed;
}

/**
 * Makes `provider` the process-wide answer: replaces process.cwd and process.chdir (and Deno.cwd / Deno.chdir on
 * Deno), so path.resolve and every library use it. Returns uninstall(), which puts the exact original functions back.
 * On Bun, path.resolve reads the cwd natively and is not affected; code that calls process.cwd() is.
 */
export function install(provider: CwdProvider): () => void {
  if (typeof provider?.cwd !== 'function' || typeof provider.chdir !== 'function') {
    throw codedError(new TypeError('install() needs a CwdProvider (with cwd() and chdir())'), 'ERR_INVALID_ARG_TYPE');
  }
  if (isClosed(provider)) {
    throw codedError(
      new Error(`install() needs an open CwdProvider: this ${provider.strategy} provider was closed`),
      'ERR_CWDKIT_CLOSED',
    );
  }
  if (state.installed !== undefined) {
    throw codedError(
      new Error(`A ${state.installed} CwdProvider is already installed: call the uninstall() that install() returned`),
      'ERR_CWDKIT_ALREADY_INSTALLED',
    );
  }
  // A thread-scoped chdir in a worker answers with its own errors: the runtime's original there only refuses.
  const threadScoped = provider.capabilities?.chdirScope === 'thread';
  const ownErrors = threadScoped && !isMainThread;
  const slots = targets(threadScoped).map(capture); // checks every slot before the first is touched

  let active = true;
  // A library that wraps process.cwd while we are installed (graceful-fs does) keeps a reference to our function;
  // after uninstall that reference must still work, so each replacement falls back to its original.
  const replacement = ({ owner, key, original }: Slot) =>
    key === 'cwd'
      ? function cwd(this: unknown): string {
          if (!active) return original.call(this) as string;
          try {
            return provider.cwd();
          } catch (error) {
            // The runtime's own error class and wording (Deno.errors.NotFound, Bun's messages) for an OS failure.
            if (isOsError(error)) original.call(this);
            throw error;
          }
        }
      : function chdir(this: unknown, directory: string | URL): void {
          if (!active) return void original.call(this, directory);
          try {
            // Deno.chdir also takes a file: URL; process.chdir does not, and keeps refusing one.
            provider.chdir(
              owner !== process && directory instanceof URL ? fileURLToPath(directory) : (directory as string),
            );
          } catch (error) {
            if (ownErrors || !isOsError(error)) throw error;
            original.call(this, directory); // throws the runtime's own error class and wording
            provider.invalidate(); // it worked this time (a race): the provider must not keep the old answer
          }
        };
  const restore = () => {
    for (const { owner, key, descriptor } of slots) {
      if (descriptor) Object.defineProperty(owner, key, descriptor);
      else delete (owner as Record<string, unknown>)[key];
    }
  };
  for (const slot of slots) {
    const value = replacement(slot);
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
  state.installed = provider.strategy ?? 'unnamed';

  return function uninstall(): void {
    if (!active) return;
    active = false;
    undoStrategy?.();
    restore();
    state.installed = undefined;
  };
}
