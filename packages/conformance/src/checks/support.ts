import assert from 'node:assert/strict';
import type { CwdCapabilities, CwdProvider } from '@cwdkit/core';
import { readOsCwd } from '@cwdkit/core';
import type { CheckContext } from '../context.js';

export interface Check {
  readonly title: string;
  /** Why these capabilities rule the check out, or undefined when it applies. */
  skip?(capabilities: CwdCapabilities): string | undefined;
  run(context: CheckContext): void | Promise<void>;
  /** The longest the check may take on a loaded 2-core machine, with room (default 60 s): the vitest timeout. */
  readonly budgetMs?: number;
}

/** Thrown by a check that finds at run time that it cannot run here; runners report it as skipped, with the reason. */
export class CheckSkipped extends Error {}

export function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The error a failed chdir must throw (Node's shape), and the proof that nothing moved. */
export function assertRefused(provider: CwdProvider, directory: unknown, code: string): void {
  const before = readOsCwd();
  const cached = provider.cwd();
  assert.throws(
    () => provider.chdir(directory as string),
    (error: NodeJS.ErrnoException & { dest?: string }) => {
      assert.ok(error instanceof Error, 'a failed chdir throws an Error');
      assert.equal(error.code, code);
      if (code.startsWith('E') && !code.startsWith('ERR_')) {
        assert.equal(error.syscall, 'chdir');
        assert.equal(typeof error.path, 'string', 'error.path is the cwd when chdir was called');
        assert.equal(error.dest, directory, 'error.dest is the directory asked for');
      }
      return true;
    },
  );
  assert.equal(readOsCwd(), before, 'a failed chdir leaves the OS cwd as it was');
  assert.equal(provider.cwd(), cached, 'a failed chdir leaves cwd() as it was');
  provider.invalidate();
  assert.equal(provider.cwd(), before, 'a failed chdir leaves nothing to invalidate');
}

export function assertChdir(context: CheckContext, directory: string, expected: string): void {
  const provider = context.provider();
  provider.chdir(directory);
  assert.equal(provider.cwd(), expected);
  assert.equal(readOsCwd(), expected, 'chdir changes the real process cwd');
}

export const workerCoherent = (capabilities: CwdCapabilities) =>
  capabilities.workerCoherent ? undefined : 'not worker-coherent (capabilities.workerCoherent is false)';
