// A short native workload for valgrind memcheck (npm run memcheck): every path through src/cwdkit.cc, with checks,
// on the main thread and in workers that exit with a watcher still running (the cleanup hook frees it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { createProvider, napi } from '../dist/index.js';

const strict = createProvider({ mode: 'strict' });
const cached = createProvider({ mode: 'cached' });
const watch = createProvider({ mode: 'watch', intervalMs: 1 });

if (!isMainThread) {
  assert.throws(() => strict.chdir('/'), { code: 'ERR_WORKER_UNSUPPORTED_OPERATION' }); // Node's refusal
  assert.equal(cached.cwd(), workerData);
  globalThis.watching = createProvider({ mode: 'watch', intervalMs: 1 }); // left open: the cleanup hook stops it
} else {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-memcheck-')));
  try {
    napi.noop();
    assert.equal(napi.getcwd(), strict.cwd());

    // chdir, and every way it can fail.
    cached.chdir(root);
    assert.equal(cached.cwd(), root);
    assert.throws(() => cached.chdir(path.join(root, 'missing')), { code: 'ENOENT' });
    fs.writeFileSync(path.join(root, 'file'), '');
    assert.throws(() => cached.chdir(path.join(root, 'file')), { code: 'ENOTDIR' });
    assert.throws(() => cached.chdir(`${root}/${'x'.repeat(5000)}`), { code: 'ENAMETOOLONG' });

    // A cwd longer than PATH_MAX: getcwd's buffer grows.
    const segment = 'd'.repeat(200);
    let deep = root;
    for (let i = 0; i < 25; i++) {
      fs.mkdirSync(segment);
      strict.chdir(segment);
      deep += `/${segment}`;
    }
    assert.equal(strict.cwd(), deep);
    assert.equal(cached.cwd(), deep);
    strict.chdir(root);

    // A deleted cwd: getcwd fails with ENOENT, the watcher sees the change.
    fs.mkdirSync('doomed');
    strict.chdir('doomed');
    fs.rmdirSync(path.join(root, 'doomed'));
    assert.throws(() => strict.cwd(), { code: 'ENOENT' });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    assert.throws(() => cached.cwd(), { code: 'ENOENT' });
    strict.chdir(root);

    // Workers: load the addon, leave a watcher running, exit; one has no shared generation.
    for (const shared of ['1', '1', '0']) {
      const env = { ...process.env, CWDKIT_NATIVE_SHARED: shared };
      const worker = new Worker(new URL(import.meta.url), { workerData: root, env });
      await new Promise((resolve, reject) => worker.on('exit', resolve).on('error', reject));
    }
    assert.equal(watch.cwd(), root);
    cached.invalidate();
    watch.close();
    console.log('memcheck workload ok');
  } finally {
    process.chdir(os.tmpdir());
    execFileSync('rm', ['-rf', root]); // fs.rmSync cannot remove a tree deeper than PATH_MAX
  }
}
