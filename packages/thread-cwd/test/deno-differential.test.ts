// Deno's kernel mode against the real thing: the same relative-path operations (test/fixtures/deno/differential.mjs:
// every path-taking Deno.* call, sync and async, over hostile paths; writes; Deno.Command without cwd; node:fs;
// path.resolve; import() of a file found through it) run (A) in a Deno process that really started in the directory
// and (B) in a Deno worker, of each kind, after thread-cwd's chdir: every answer and error (code and class) must be
// identical, in a live directory and in a deleted one.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs fixture, shared with the Node differential test
import { makeTree } from './fixtures/ops.mjs';

const run = promisify(execFile);
const deno = findRuntime('deno');
const script = path.join(import.meta.dirname, 'fixtures', 'deno', 'differential.mjs');
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-deno-diff-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const unshareHere = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());
const TIMEOUT = 180_000;

async function side(name: string, root: string, cwd: string, kind: string): Promise<[string, unknown][]> {
  const { stdout } = await run(deno as string, ['run', '-A', script, name, root, kind], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop() as string);
}

describe.skipIf(deno === undefined || !unshareHere).each(['wt', 'web'])('Deno differential, %s worker', (kind) => {
  it.each([
    ['in a directory', '', 'd'],
    ['in a deleted directory', '-deleted', 'gone'],
  ])(
    "%s: a worker that chdir'd there answers as a process started there",
    async (_title, suffix, dir) => {
      const [real, thread] = ['real', 'thread'].map((name) => path.join(scratch, `${kind}${suffix}-${name}`)) as [
        string,
        string,
      ];
      for (const root of [real, thread]) makeTree(root);
      const [expected, actual] = await Promise.all([
        side(`real${suffix}`, real, path.join(real, dir), kind),
        side(`thread${suffix}`, thread, thread, kind),
      ]);
      expect(actual.length).toBeGreaterThan(suffix ? 10 : 300);
      expect(actual).toEqual(expected);
      // Not all failures: most calls reached their files.
      const passed = expected.filter(([, answer]) => (answer as { ok?: unknown }).ok !== undefined).length;
      expect(passed).toBeGreaterThan(suffix ? 2 : 100);
    },
    TIMEOUT,
  );
});
