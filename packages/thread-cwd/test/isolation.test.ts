// Several workers chdir'd to different directories read the same relative names at the same time, over many
// interleaved rounds: each gets its own file every time, and the main thread's cwd never moves.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findRuntime } from '@cwdkit/conformance';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = path.join(import.meta.dirname, 'fixtures', 'isolation.mjs');
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-isolation-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const node = findRuntime('node24');

async function isolation(tag: string, rounds: number, env: Record<string, string> = {}) {
  const root = path.join(scratch, tag);
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'name'), 'the process cwd'); // what an uncovered read silently gets
  const { stdout } = await run(node as string, [script, root, '4', String(rounds)], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout);
}

describe.skipIf(!node)('isolation', () => {
  it('4 workers x 300 rounds: each reads its own files; the main thread never moves', async () => {
    const result = await isolation('sound', 300);
    expect(result.mismatches).toEqual([]);
    expect(result.reads).toBeGreaterThan(4 * 300 * 6);
    expect(result.main).toEqual({ moved: 0, cwd: true, os: true });
  });

  it('fails on a broken cover: readFileSync left uncovered reads the process cwd', async () => {
    const result = await isolation('broken', 20, { THREAD_CWD_BREAK: 'readFileSync' });
    expect(result.mismatchCount).toBeGreaterThan(0);
    expect(result.mismatches[0]).toMatchObject({ what: 'readFileSync', got: 'the process cwd' });
  });
});
