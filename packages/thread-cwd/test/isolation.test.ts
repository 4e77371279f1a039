// Several workers chdir'd to different directories read the same relative names at the same time, over many
// interleaved rounds: each gets its own file every time, and the main thread's cwd never moves.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import { afterAll, describe, expect, it } from 'vitest';
import { noUnshare } from '../../native/test/no-unshare.js';

const run = promisify(execFile);
const script = path.join(import.meta.dirname, 'fixtures', 'isolation.mjs');
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-isolation-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const node = findRuntime('node24');

type Mode = 'kernel' | 'handles';
/** Whether kernel mode can run here (the addon loads and unshare(CLONE_FS) is allowed): skipped, visibly, where not. */
const kernelHere = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());

/** Handles mode: under a real seccomp filter that refuses unshare(2) with EPERM (@cwdkit/native's test launcher). */
async function isolation(tag: string, mode: Mode, rounds: number, env: Record<string, string> = {}, runtime = node) {
  const root = path.join(scratch, tag);
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'name'), 'the process cwd'); // what an uncovered read silently gets
  const command = mode === 'kernel' ? [runtime as string] : [noUnshare(), runtime as string];
  const { stdout } = await run(command[0] as string, [...command.slice(1), script, root, '4', String(rounds)], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  const result = JSON.parse(stdout);
  expect(result.modes, 'the mode thread-cwd chose in every worker').toEqual([mode]);
  return result;
}

// Bun: kernel mode only; Bun.file's reads run on Bun's process-wide work pool (the fixture reads with it too).
const bun = findRuntime('bun');
describe.skipIf(!bun || !kernelHere)('isolation on Bun, kernel mode', () => {
  it('4 workers x 200 rounds: each reads its own files; the main thread never moves', async () => {
    const result = await isolation('sound-bun', 'kernel', 200, {}, bun);
    expect(result.mismatches).toEqual([]);
    expect(result.reads).toBeGreaterThan(4 * 200 * 7);
    expect(result.main).toEqual({ moved: 0, cwd: true, os: true });
    expect(result.mainReads.mismatches).toEqual([]);
    expect(result.mainReads.count).toBeGreaterThan(10);
  });

  it('fails on a broken cover: readFile left uncovered reads the process cwd', async () => {
    const result = await isolation('broken-bun', 'kernel', 20, { THREAD_CWD_BREAK: 'readFile' }, bun);
    expect(result.mismatches[0]).toMatchObject({ what: 'readFile', got: 'the process cwd' });
  });
});

describe.each(['kernel', 'handles'] as const)('isolation, %s mode', (mode) => {
  const skip = !node || (mode === 'kernel' && !kernelHere);
  it.skipIf(skip)('4 workers x 300 rounds: each reads its own files; the main thread never moves', async () => {
    const result = await isolation(`sound-${mode}`, mode, 300);
    expect(result.mismatches).toEqual([]);
    expect(result.reads).toBeGreaterThan(4 * 300 * 6);
    expect(result.main).toEqual({ moved: 0, cwd: true, os: true });
    expect(result.mainReads.mismatches).toEqual([]);
    expect(result.mainReads.count).toBeGreaterThan(10);
  });

  // Kernel mode needs no cover for readFileSync (the thread is in its directory); readFile runs on the shared pool.
  const broken = mode === 'kernel' ? 'readFile' : 'readFileSync';
  it.skipIf(skip)(`fails on a broken cover: ${broken} left uncovered reads the process cwd`, async () => {
    const result = await isolation(`broken-${mode}`, mode, 20, { THREAD_CWD_BREAK: broken });
    expect(result.mismatchCount).toBeGreaterThan(0);
    expect(result.mismatches[0]).toMatchObject({ what: broken, got: 'the process cwd' });
  });
});
