// vitest itself, with the README's one line (`setupFiles: ['@cwdkit/thread-cwd/setup']`) on each of its pools:
// on 'threads' each file's relative chdir and read are a process's really started there; on 'vmThreads' and 'vmForks'
// (files run in a vm context, their node:fs a copy) the setup refuses with ERR_CWDKIT_UNSUPPORTED_RUNTIME, never a
// file read from the process cwd; and a plain vm context refuses too (scenario setupInVmContext of thread-cwd.test.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findRuntime } from '@cwdkit/conformance';
import { afterAll, describe, expect, it } from 'vitest';
import { MAJORS } from './majors.js';

const project = path.join(import.meta.dirname, 'fixtures', 'vitest-pools');
const vitest = fs.realpathSync(
  path.join(import.meta.dirname, '..', '..', '..', 'node_modules', 'vitest', 'vitest.mjs'),
);
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-vitest-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const nodes = MAJORS.flatMap((name) => {
  const binary = findRuntime(name);
  return binary ? [[name, binary] as const] : [];
});
let runs = 0;

/** vitest run on `pool` from a fresh directory (data.txt, a/data.txt, b/data.txt): its output and what each file saw. */
function run(node: string, pool: string, cases: string) {
  const root = path.join(scratch, `run-${runs++}`);
  for (const dir of ['', 'a', 'b']) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, dir, 'data.txt'), dir || 'root');
  }
  const out = path.join(root, 'out');
  fs.mkdirSync(out);
  const env = { ...process.env, POOL: pool, CASES: cases, OUT: out, CACHE: path.join(root, 'cache'), NO_COLOR: '1' };
  const args = [vitest, 'run', '--root', project, '--config', path.join(project, 'vitest.config.mjs')];
  const result = spawnSync(node, args, { cwd: root, env, encoding: 'utf8' });
  const seen = Object.fromEntries(
    fs
      .readdirSync(out)
      .map((file) => [path.basename(file, '.json'), JSON.parse(fs.readFileSync(path.join(out, file), 'utf8'))]),
  );
  return { root, status: result.status, output: result.stdout + result.stderr, seen };
}

/** The control: a process really started in `dir`, reading by the same ESM named import. */
function real(node: string, dir: string) {
  const code =
    "import { readFileSync } from 'node:fs'; console.log(JSON.stringify({ cwd: process.cwd(), read: readFileSync('data.txt', 'utf8') }))";
  return JSON.parse(execFileSync(node, ['--input-type=module', '-e', code], { cwd: dir, encoding: 'utf8' }));
}

describe.skipIf(nodes.length === 0 || process.platform !== 'linux')('thread-cwd/setup on each vitest pool', () => {
  describe.each(nodes)('%s', (_name, node) => {
    it("pool 'threads': each file's relative chdir and relative read are a process's really started there", () => {
      const { root, status, output, seen } = run(node, 'threads', 'chdir-*.case.mjs');
      expect(status, output).toBe(0);
      expect(seen).toEqual({ a: real(node, path.join(root, 'a')), b: real(node, path.join(root, 'b')) });
      expect(seen.a.read).toBe('a'); // the control itself: not the process cwd's
    });

    it.each(['vmThreads', 'vmForks'])(
      "pool '%s': the setup refuses with ERR_CWDKIT_UNSUPPORTED_RUNTIME, saying which pool to use; no file runs, none reads the process cwd's data.txt, no error names /proc",
      (pool) => {
        const { status, output, seen } = run(node, pool, 'chdir-*.case.mjs');
        expect(seen).toEqual({});
        expect(status).not.toBe(0);
        expect(output).toContain(
          "install(): thread-cwd cannot run here: code in a vm context (vitest's pools 'vmThreads' and 'vmForks')",
        );
        expect(output).toContain("use vitest's pool 'threads' (or 'forks')");
        expect(output).not.toContain('/proc/');
      },
    );
  });

  it.skipIf(!findRuntime('node24')).each(['vmThreads', 'vmForks'])(
    "pool '%s', node24: the setup imported by a test file throws ERR_CWDKIT_UNSUPPORTED_RUNTIME and changes nothing",
    (pool) => {
      const { status, output, seen } = run(findRuntime('node24') as string, pool, 'refuses.case.mjs');
      expect(status, output).toBe(0);
      expect(seen.refuses).toMatchObject({
        code: 'ERR_CWDKIT_UNSUPPORTED_RUNTIME',
        unchanged: true,
        installed: null,
        ...(pool === 'vmThreads' ? { isMainThread: false, chdir: 'ERR_WORKER_UNSUPPORTED_OPERATION' } : {}),
      });
      expect(seen.refuses.message).toMatch(/^install\(\): thread-cwd cannot run here: code in a vm context/);
    },
  );
});
