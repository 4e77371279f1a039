// A deleted working directory (trap 5).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { CwdProvider } from '@cwdkit/core';
import { runtime, runtimeCwd } from '@cwdkit/core';
import type { Check } from './support.js';

/** One text per runtime (Node's and Bun's process.cwd()): when both the provider and the runtime's own cwd fail, they say the same thing. */
function assertRuntimeWording(provider: CwdProvider): void {
  let ours: unknown;
  let theirs: unknown;
  try {
    provider.cwd();
  } catch (error) {
    ours = error;
  }
  try {
    runtimeCwd();
  } catch (error) {
    theirs = error;
  }
  if (
    runtime !== 'deno' &&
    ours instanceof Error &&
    theirs instanceof Error &&
    (theirs as { code?: unknown }).code === 'ENOENT'
  ) {
    assert.equal(ours.message, theirs.message, "a deleted cwd's error is worded as the runtime words it");
  }
}
export const deletedCwdChecks: readonly Check[] = [
  {
    title: 'a deleted cwd gives the old path or ENOENT, and ENOENT after invalidate()',
    run(context) {
      const provider = context.provider();
      const doomed = context.dir('doomed');
      provider.chdir(doomed);
      provider.cwd();
      fs.rmdirSync(doomed);
      const answer = () => {
        try {
          return provider.cwd();
        } catch (error) {
          assert.equal((error as NodeJS.ErrnoException).code, 'ENOENT', 'a deleted cwd fails with ENOENT');
          return 'ENOENT';
        }
      };
      assert.ok(['ENOENT', doomed].includes(answer()), 'neither the old path nor ENOENT');
      assertRuntimeWording(provider);
      provider.invalidate();
      assertRuntimeWording(provider);
      const after = answer();
      if (after === 'ENOENT') return;
      // Only a strategy that hands out the runtime's own cached answer (naive on Node and Bun) may keep the old path.
      assert.equal(after, doomed, 'neither the old path nor ENOENT after invalidate()');
      let runtimeAnswer: string;
      try {
        runtimeAnswer = runtimeCwd();
      } catch {
        runtimeAnswer = 'ENOENT';
      }
      assert.equal(runtimeAnswer, doomed, 'after invalidate() the OS must be asked, and the OS says ENOENT');
    },
  },
];
