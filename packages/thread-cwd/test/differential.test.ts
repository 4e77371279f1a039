// The same relative-path operations (test/fixtures/ops.mjs) run (A) in a process that really started in the directory
// and (B) in a worker after thread-cwd's chdir: every answer and error must be identical, on Node 22, 24 and 26, in
// both modes: kernel (the worker's own fs_struct, allowed here) and handles (under a real seccomp filter that refuses
// unshare(2) with EPERM, as Docker's default profile does: @cwdkit/native's test launcher).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import { afterAll, describe, expect, it } from 'vitest';
import { noUnshare } from '../../native/test/no-unshare.js';
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
const groups = ['operations', 'invalid', 'cp', 'chdir', 'moved', 'deletedSwallowing', 'deleted', 'bun'] as const;
type Answers = Record<(typeof groups)[number], [string, unknown][]> & { main?: unknown };

type Mode = 'kernel' | 'handles';
/** Whether kernel mode can run here (the addon loads and unshare(CLONE_FS) is allowed): skipped, visibly, where not. */
const kernelHere = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());
/** The command that runs a Node in `mode`: as it is here (unshare allowed), or under the seccomp launcher. */
const launch = (mode: Mode, node: string) => (mode === 'kernel' ? [node] : [noUnshare(), node]);

async function sides(node: string, tag: string, mode: Mode, env: Record<string, string> = {}) {
  const [real, thread] = ['real', 'thread'].map((name) => path.join(scratch, `${tag}-${name}`)) as [string, string];
  for (const root of [real, thread]) makeTree(root, addon);
  const options = { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 };
  // At most 4,096 open files, so an op can run out of them quickly (a recursive Dir that cannot open a subfolder).
  const limited = (which: string, root: string) => [
    '-c',
    'ulimit -n 4096 && exec "$0" "$@"',
    ...launch(mode, node),
    side,
    which,
    root,
  ];
  const a = await run('sh', limited('real', real), { ...options, cwd: path.join(real, 'd') });
  const b = await run('sh', limited('thread', thread), { ...options, cwd: thread });
  const answers = parse(b.stdout) as Answers & { mode?: Mode };
  expect(answers.mode, 'the mode thread-cwd chose').toBe(mode);
  return { real: parse(a.stdout), thread: answers };
}

/** A side's answers; Bun's mkdtemp errors name the random name it tried (Node's the template): spelled as Node's. */
const parse = (text: string) => JSON.parse(text.replace(/((?:x|mt)-)[A-Za-z0-9]{6}\b/g, '$1XXXXXX')) as Answers;

/** Every operation whose answers differ, by name. */
function differences(real: Answers, thread: Answers): string[] {
  const names: string[] = [];
  for (const group of groups) {
    (real[group] ?? []).forEach(([name, answer], index) => {
      const [otherName, other] = thread[group][index] as [string, unknown];
      if (otherName !== name || JSON.stringify(other) !== JSON.stringify(answer)) names.push(`${group}: ${name}`);
    });
  }
  return names;
}

const nodes = MAJORS.map((name) => [name, findRuntime(name)] as const);

describe.each(['kernel', 'handles'] as const)('thread-cwd against a real chdir, %s mode', (mode) => {
  for (const [name, node] of nodes) {
    it.skipIf(!node || (mode === 'kernel' && !kernelHere))(
      `${name}: every answer and error is the real chdir's`,
      async () => {
        const { real, thread } = await sides(node as string, `${name}-${mode}`, mode);
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
        const named = groups.flatMap((group) =>
          (thread[group] ?? []).filter(([, seen]) => handle.test(JSON.stringify(seen))),
        );
        expect(named.map(([name]) => name)).toEqual([]);
        for (const group of groups) expect(thread[group]).toEqual(real[group]);
        expect(thread.main, "the main thread's cwd never moved").toEqual({ cwd: '<root>', os: '<root>' });
      },
    );
  }

  // Bun has kernel mode only (src/bun.ts): its own APIs too (test/fixtures/ops.mjs, bunOperations).
  const bun = findRuntime('bun');
  it.skipIf(!bun || mode === 'handles' || !kernelHere)("bun: every answer and error is the real chdir's", async () => {
    const { real, thread } = await sides(bun as string, 'bun-kernel', mode);
    expect(real.bun.length).toBeGreaterThan(25);
    expect(real.operations.length).toBeGreaterThan(60);
    // One reviewed difference: Bun's own chdir words a path past PATH_MAX "Invalid path", with no code; a worker's
    // chdir gives the kernel's ENAMETOOLONG, coded, as on Node.
    expect(differences(real, thread)).toEqual(['chdir: chdir(5000 bytes) ENAMETOOLONG']);
    expect(thread.main, "the main thread's cwd never moved").toEqual({ cwd: '<root>', os: '<root>' });
  });

  const node24 = findRuntime('node24');
  // libuv's io_uring (off by default since Node 20.x): async fs calls are then submitted from the loop's own thread,
  // not the pool's; the relative ones still reach the OS joined to the handle, so the mode changes nothing.
  it.skipIf(!node24 || (mode === 'kernel' && !kernelHere))('node24 with UV_USE_IO_URING=1: the same', async () => {
    const { real, thread } = await sides(node24 as string, `io-uring-${mode}`, mode, { UV_USE_IO_URING: '1' });
    expect(differences(real, thread)).toEqual([]);
  });

  // Handles mode covers readFileSync; kernel mode needs no cover for it (the thread is in the directory), but still
  // covers readFile, which runs on libuv's shared pool.
  const broken = mode === 'kernel' ? 'readFile' : 'readFileSync';
  it.skipIf(!node24 || (mode === 'kernel' && !kernelHere))(
    `fails on a broken cover (${broken} left uncovered), naming what differs`,
    async () => {
      const { real, thread } = await sides(node24 as string, `broken-${mode}`, mode, { THREAD_CWD_BREAK: broken });
      const found = differences(real, thread);
      if (mode === 'kernel') {
        expect(found).toContain("operations: readFile('f') (callback)");
      } else {
        expect(found).toContain("operations: readFileSync('f')");
        expect(found).toContain("operations: readFileSync('link/../x') (kernel, not lexical)");
      }
    },
  );
});
