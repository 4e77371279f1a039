// The same relative-path operations (test/fixtures/ops.mjs) run (A) in a process that really started in the directory
// and (B) in a worker after thread-cwd's chdir: every answer and error must be identical, on Node 22, 24 and 26.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findRuntime } from '@cwdkit/conformance';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs fixture, shared with the child processes
import { makeTree } from './fixtures/ops.mjs';
import { MAJORS } from './majors.js';

const run = promisify(execFile);
const side = path.join(import.meta.dirname, 'fixtures', 'side.mjs');
/** A real Node-API addon to load by a relative path (the native strategy's, when built). */
const addon = [path.join(import.meta.dirname, '..', '..', 'native', 'build', 'Release', 'cwdkit.node')].find((file) =>
  fs.existsSync(file),
);
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-diff-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The groups of test/fixtures/side.mjs, in its order: `moved` and `deletedSwallowing` in a directory whose path another
 * directory took (moved away, or deleted), with the calls that swallow ENOENT. */
const groups = ['operations', 'invalid', 'cp', 'chdir', 'moved', 'deletedSwallowing', 'deleted'] as const;
type Answers = Record<(typeof groups)[number], [string, unknown][]> & { main?: unknown };

async function sides(node: string, tag: string, env: Record<string, string> = {}) {
  const [real, thread] = ['real', 'thread'].map((name) => path.join(scratch, `${tag}-${name}`)) as [string, string];
  for (const root of [real, thread]) makeTree(root, addon);
  const options = { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 };
  // At most 4,096 open files, so an op can run out of them quickly (a recursive Dir that cannot open a subfolder).
  const limited = (mode: string, root: string) => ['-c', 'ulimit -n 4096 && exec "$0" "$@"', node, side, mode, root];
  const a = await run('sh', limited('real', real), { ...options, cwd: path.join(real, 'd') });
  const b = await run('sh', limited('thread', thread), { ...options, cwd: thread });
  return { real: JSON.parse(a.stdout) as Answers, thread: JSON.parse(b.stdout) as Answers };
}

/** Every operation whose answers differ, by name. */
function differences(real: Answers, thread: Answers): string[] {
  const names: string[] = [];
  for (const group of groups) {
    real[group].forEach(([name, answer], index) => {
      const [otherName, other] = thread[group][index] as [string, unknown];
      if (otherName !== name || JSON.stringify(other) !== JSON.stringify(answer)) names.push(`${group}: ${name}`);
    });
  }
  return names;
}

const nodes = MAJORS.map((name) => [name, findRuntime(name)] as const);

describe('thread-cwd against a real chdir', () => {
  for (const [name, node] of nodes) {
    it.skipIf(!node)(`${name}: every answer and error is the real chdir's`, async () => {
      const { real, thread } = await sides(node as string, name);
      expect(real.operations.length).toBeGreaterThan(60);
      expect(real.invalid.length).toBeGreaterThan(100);
      // The fixture is hostile enough to tell lexical from physical: the real side shows it.
      const answer = (group: keyof Answers, label: string) =>
        (real[group] as [string, unknown][]).find(([n]) => n.startsWith(label))?.[1];
      expect(answer('operations', "readFileSync('link/../x')")).toEqual({ ok: 'other/x\n' });
      expect(answer('operations', "opendirSync('sub', recursive) read with no fd left")).toMatchObject({
        code: 'EMFILE',
        message: "EMFILE: too many open files, opendir 'sub/deep'",
      });
      expect(answer('deleted', "readdirSync('.')")).toEqual({ ok: [] });
      expect(answer('chdir', "chdir('link')")).toEqual({ ok: '<root>/other/inner' });
      // A real cwd is the directory, not its path: moved, it is still read and written; deleted, it holds nothing.
      expect(answer('moved', "readFileSync('x')")).toEqual({ ok: 'mv/x\n' });
      expect(answer('moved', "rmSync('victim', force)")).toEqual({ ok: ['mv'] });
      expect(answer('moved', 'process.cwd()')).toEqual({ ok: '<root>/mv2' });
      expect(answer('deletedSwallowing', "existsSync('x')")).toEqual({ ok: [false, false] });
      expect(answer('deletedSwallowing', "statSync('x'")).toEqual({ ok: 'none' });
      // cp's links name the cwd (its path, spelled <root>), as a real chdir's do.
      expect(answer('cp', "cpSync('cps', 'cp1', recursive)")).toEqual({
        ok: ['<root>/d/cps/target', '<root>/d/f', '<root>/d/cps/target'],
      });
      // No answer and no error message names the directory's handle (each is also compared below).
      const handle = /\/proc\/(\d+|self)\/fd\//;
      const named = groups.flatMap((group) => thread[group].filter(([, seen]) => handle.test(JSON.stringify(seen))));
      expect(named.map(([name]) => name)).toEqual([]);
      for (const group of groups) expect(thread[group]).toEqual(real[group]);
      expect(thread.main, "the main thread's cwd never moved").toEqual({ cwd: '<root>', os: '<root>' });
    });
  }

  const node24 = findRuntime('node24');
  it.skipIf(!node24)('fails on a broken cover (readFileSync left uncovered), naming what differs', async () => {
    const { real, thread } = await sides(node24 as string, 'broken', { THREAD_CWD_BREAK: 'readFileSync' });
    const found = differences(real, thread);
    expect(found).toContain("operations: readFileSync('f')");
    expect(found).toContain("operations: readFileSync('link/../x') (kernel, not lexical)");
  });
});
