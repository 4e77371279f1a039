// Bun's kernel mode (src/bun.ts, and the thread starts @cwdkit/native's addon routes there): a web Worker's chdir moves
// that worker alone (Bun's own would move every thread's cached cwd); a worker's workers, of both kinds, start in its
// directory and then move alone; and no thread Bun starts from a chdir'd worker (its work pool's, JavaScriptCore's, a
// Worker's) is left in that worker's directory. Each in a fresh Bun process with the setup entry preloaded, as a user
// runs it (test/fixtures/bun.mjs). The differential and isolation tests run on Bun too; the refusals where kernel mode
// cannot run are in thread-cwd.test.ts and main-thread.test.ts.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findRuntime } from '@cwdkit/conformance';
import { kernel } from '@cwdkit/native/kernel';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const bun = findRuntime('bun');
const script = path.join(import.meta.dirname, 'fixtures', 'bun.mjs');
const setup = path.join(import.meta.dirname, '..', 'dist', 'setup.cjs');
const unshareHere = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-bun-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function scenario(name: string) {
  const root = path.join(scratch, name);
  for (const dir of ['a', 'b']) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.writeFileSync(path.join(root, dir, 'name'), dir);
  }
  fs.writeFileSync(path.join(root, 'name'), 'the process cwd');
  for (const [dir, text] of [
    ['', 'the process cwd'],
    ['a', 'a'],
  ]) {
    const script = `const port = require('node:worker_threads').parentPort;\n(port ?? globalThis).postMessage('w.cjs of ${text}');\n`;
    fs.writeFileSync(path.join(root, dir as string, 'w.cjs'), script);
  }
  const { stdout } = await run(bun as string, ['--preload', setup, script, name], { cwd: root, timeout: 60_000 });
  return JSON.parse(stdout);
}

const at = (dir: string) => ({
  cwd: `<root>${dir && `/${dir}`}`,
  ...Object.fromEntries(['sync', 'promises', 'file', 'spawn'].map((k) => [k, dir || 'the process cwd'])),
});

describe.skipIf(!bun || !unshareHere)('thread-cwd on Bun, kernel mode', () => {
  it("a web Worker's chdir moves that worker alone: the main thread's cwd, Bun's cached one and its async reads stay", async () => {
    const report = await scenario('web');
    expect(report.worker.started).toEqual(at(''));
    expect(report.worker.moved).toEqual(at('a'));
    expect(report.main).toEqual({ resolve: true, realpath: true, glob: ['name', 'w.cjs'], ...at('') });
  });

  it('a pool: workers that chdir leave no handle open when they end or are terminated (Bun closes none of their files)', async () => {
    expect(await scenario('pool')).toEqual({ answers: ['a'], leaked: 0 });
  });

  it("a worker's workers (node:worker_threads and web) start in its directory, then move alone; a relative filename is its directory's; no thread it started stays there", async () => {
    const report = await scenario('nested');
    expect(report.outer).toEqual(at('a'));
    expect(report.inner).toEqual([
      { started: at('a'), moved: at('b') },
      { started: at('a'), moved: at('b') },
    ]);
    expect(report.scripts).toEqual(['w.cjs of a', 'w.cjs of a', 'w.cjs of a']); // Bun alone runs the process cwd's
    expect(report.after).toEqual(at('a'));
    expect(report.tids).toHaveLength(3);
    // Without the routing of Bun's own thread starts (kernel.ts: unshareFs(true)): 3-4 threads here, each time.
    expect(report.strays).toEqual([]);
    expect(report.main).toEqual(at(''));
  });
});
