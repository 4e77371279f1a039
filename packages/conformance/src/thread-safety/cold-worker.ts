// cold-worker.js <strategy module> <shared memory key> [no-storm]
// A worker of a pool whose main thread never loads the strategy (a cold worker) finds no shared memory, says so where
// the strategy states it (capabilities.cold), sees every chdir the main thread makes with the runtime's own chdir,
// and after invalidate() asks the OS: ENOENT once its directory is deleted (trap 5). Then the same in a stale-read
// storm (paused, so every state lasts long enough to be read), unless no-storm. Prints a JSON line, and exits on its own.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { osChdir, readOsCwd } from '@cwdkit/core';
import { measureStaleReads } from '../stale-reads.js';
import { answer, answeringWorker, ask } from './ask.js';
import { scratchDirectories } from './scratch.js';

const [module, key, noStorm] = process.argv.slice(2) as [string, string, string?];
const worker = await answeringWorker(new URL('./reader.js', import.meta.url), { module, key });
const { dirs, remove } = scratchDirectories(3, 'cwdkit-cold-');
const home = readOsCwd();
let found: { shared?: boolean; cold?: boolean } = {};
let deleted: { before: string; afterInvalidate: string };
try {
  for (let i = 0; i < 100; i++) {
    const target = dirs[i % 2] as string;
    osChdir(target);
    const { cwd, shared, cold } = await ask(worker);
    assert.equal(cwd, target, `the cold worker, after chdir #${i}`);
    found = { shared, cold };
  }
  const doomed = dirs[2] as string;
  osChdir(doomed);
  assert.equal((await ask(worker)).cwd, doomed);
  fs.rmdirSync(doomed);
  const before = await answer(worker, 'cwd'); // the old path or ENOENT: either is allowed
  const after = await answer(worker, 'invalidate');
  deleted = {
    before: before.cwd === doomed ? 'the old path' : (before.error?.split(':')[0] ?? String(before.cwd)),
    afterInvalidate: after.error?.split(':')[0] ?? `the path ${after.cwd}`,
  };
  osChdir(dirs[0] as string);
  assert.equal((await ask(worker)).cwd, dirs[0], 'after a chdir out of the deleted directory');
} finally {
  osChdir(home);
  remove();
  await worker.terminate();
}
if (noStorm === 'no-storm') {
  console.log(JSON.stringify({ ...found, deleted }));
} else {
  const storm = await measureStaleReads({ module, cold: true, chdirs: 10_000, minReads: 1_050_000, pauseUs: 20 });
  const { stale, checked, chdirs, examples } = storm;
  console.log(JSON.stringify({ ...found, deleted, storm: { stale, checked, chdirs, examples } }));
}
