import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMainThread, threadId } from 'node:worker_threads';
import { afterAll, expect, inject } from 'vitest';

/** The test files that meet: each waits in together() for all of them. */
const everyone = ['a.test.ts', 'b.test.ts', 'c.test.ts'];
const me = path.basename(expect.getState().testPath ?? '');

// A file that ends without arriving (it failed first) lets the others stop waiting at once.
afterAll(() => fs.writeFileSync(path.join(inject('rendezvous'), `${me}.done`), ''));

/**
 * Waits until every test file has called it, so that what a file checks afterwards happens while the others sit in
 * directories of their own. On pool 'threads' they are threads of one process, where a process-wide chdir would show.
 */
export async function together(): Promise<void> {
  const rendezvous = inject('rendezvous');
  const arrival = path.join(rendezvous, me);
  fs.writeFileSync(`${arrival}.tmp`, JSON.stringify({ pid: process.pid, threadId }));
  fs.renameSync(`${arrival}.tmp`, arrival); // whole, or not there yet
  for (const deadline = Date.now() + 50_000; ; await sleep(10)) {
    const missing = everyone.filter((name) => !fs.existsSync(path.join(rendezvous, name)));
    if (missing.length === 0) break;
    const gone = missing.filter((name) => fs.existsSync(path.join(rendezvous, `${name}.done`)));
    if (gone.length > 0) throw new Error(`${me}: ${gone.join(', ')} ended without arriving`);
    if (Date.now() > deadline) {
      throw new Error(
        `${me} waited 50 s for ${missing.join(', ')}: run the whole example (maxWorkers >= ${everyone.length})`,
      );
    }
  }
  const arrivals = everyone.map((name) => JSON.parse(fs.readFileSync(path.join(rendezvous, name), 'utf8')));
  // Threads of one process (pool 'threads'), or a process each (pool 'forks', where each is its process's main thread).
  expect(new Set(arrivals.map(({ pid }) => pid)).size).toBe(isMainThread ? everyone.length : 1);
  expect(new Set(arrivals.map(({ pid, threadId }) => `${pid}:${threadId}`)).size).toBe(everyone.length);
}
