// thread-cwd on the main thread, in a real child process of each runtime: where workers cannot have a cwd of their own
// (Bun with kernel mode turned off or refused, Deno without --allow-ffi), install() says so once with a coded warning;
// on Node it says nothing, and loads none of what only a worker's cover needs (node:child_process, node:net: start-up
// under the flag, issue #21).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import { describe, expect, it } from 'vitest';
import { noUnshare } from '../../native/test/no-unshare.js';

const script = path.join(import.meta.dirname, 'fixtures', 'main-thread.mjs');
const unshareHere = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());
const run = (binary: readonly string[], env: Record<string, string> = {}) =>
  JSON.parse(
    execFileSync(binary[0] as string, [...binary.slice(1), script], {
      encoding: 'utf8',
      cwd: import.meta.dirname,
      env: { ...process.env, ...env },
    }),
  );
const bun = findRuntime('bun');

describe('thread-cwd installed on the main thread', () => {
  for (const [name, binary, env] of [
    ['bun with CWDKIT_THREAD_CWD_KERNEL=0', [bun], { CWDKIT_THREAD_CWD_KERNEL: '0' }],
    ['bun under a seccomp filter that refuses unshare(2)', [noUnshare(), bun]],
    // With --allow-ffi a Deno worker gets a cwd of its own (below).
    ['deno without --allow-ffi', [findRuntime('deno'), 'run', '--allow-read', '--allow-env', '--allow-sys']],
  ] as const) {
    it.skipIf(!binary.at(-1))(
      `${name}: one CWDKIT_THREAD_CWD_PROCESS_SCOPE warning per process, saying workers have no cwd of their own`,
      () => {
        const report = run(binary as unknown as string[], env);
        expect(report.scope).toBe('process');
        expect(report.warnings.map((warning: { code: string }) => warning.code)).toEqual([
          'CWDKIT_THREAD_CWD_PROCESS_SCOPE',
        ]);
        expect(report.warnings[0].message).toMatch(/cannot give workers a cwd of their own/);
        expect(report.warnings[0].message).toMatch(/ERR_CWDKIT_UNSUPPORTED_RUNTIME/);
      },
    );
  }

  // Bun's workers have kernel mode only (src/bun.ts).
  it.skipIf(!bun || !unshareHere)('bun: no warning, workers have their own cwd', () => {
    expect(run([bun as string])).toEqual({ scope: 'thread', warnings: [], loaded: [] });
  });

  const deno = findRuntime('deno');
  // Where a seccomp filter refuses unshare(2) the warning comes back (test/deno.test.ts).
  it.skipIf(!deno || !unshareHere)('deno with --allow-ffi: no warning, workers have their own cwd', () => {
    expect(run([deno as string, 'run', '-A'])).toEqual({ scope: 'thread', warnings: [], loaded: [] });
  });

  for (const name of ['node22', 'node24', 'node26'] as const) {
    const node = findRuntime(name);
    it.skipIf(!node || process.platform !== 'linux')(
      `${name}: no warning, and neither node:child_process nor node:net loaded`,
      () => {
        expect(run([node as string])).toEqual({ scope: 'thread', warnings: [], loaded: [] });
      },
    );
  }
});
