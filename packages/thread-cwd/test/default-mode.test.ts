// Kernel mode is the default where unshare(2) is allowed (README, "Two modes"). With CWDKIT_THREAD_CWD_KERNEL=0 a
// worker's chdir makes no unshare(2) and no fchdir(2), even where they are allowed, and its thread stays in the
// process's cwd in the kernel (the handle cover does the rest).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { kernel } from '@cwdkit/native/kernel';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'thread-cwd-default-mode-')));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const kernelHere = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());

// A worker installs thread-cwd and chdirs: its mode, its cwd, and where its thread is in the kernel.
const script = `
const { Worker } = require('node:worker_threads');
const worker = new Worker(\`
  const fs = require('node:fs');
  const { install } = require('cwdkit');
  const provider = require('@cwdkit/thread-cwd').createProvider();
  install(provider);
  process.chdir('sub');
  require('node:worker_threads').parentPort.postMessage({
    mode: provider.capabilities.threadCwd,
    cwd: process.cwd(),
    kernel: fs.readlinkSync('/proc/thread-self/cwd'),
    name: fs.readFileSync('name', 'utf8'),
  });
\`, { eval: true });
// Not terminated: it ends by itself, its warning (emitted on a later tick) written first.
worker.once('message', (seen) => console.log(JSON.stringify(seen)));
`;

describe.skipIf(process.platform !== 'linux')('the mode a worker gets', () => {
  fs.mkdirSync(path.join(scratch, 'sub'));
  fs.writeFileSync(path.join(scratch, 'sub', 'name'), 'sub');
  fs.writeFileSync(path.join(scratch, 'app.cjs'), script);
  fs.symlinkSync(path.join(import.meta.dirname, '../../../node_modules'), path.join(scratch, 'node_modules'));
  const sub = path.join(scratch, 'sub');

  it.each([
    ['unset', kernelHere ? 'kernel' : 'handles', undefined],
    ['empty', kernelHere ? 'kernel' : 'handles', ''],
    ['0', 'handles', '0'],
    ['off (not a value it knows: with a warning)', 'handles', 'off'],
    ['1', kernelHere ? 'kernel' : 'handles', '1'],
  ])('CWDKIT_THREAD_CWD_KERNEL %s gives %s mode', async (_label, mode, value) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    if (value === undefined) delete env.CWDKIT_THREAD_CWD_KERNEL;
    else env.CWDKIT_THREAD_CWD_KERNEL = value;
    const { stdout, stderr } = await run(process.execPath, ['app.cjs'], { cwd: scratch, env });
    expect(stderr.includes('CWDKIT_THREAD_CWD_KERNEL_VALUE')).toBe(value === 'off');
    // In handles mode the thread never moved in the kernel: it is where the process is.
    expect(JSON.parse(stdout)).toEqual({ mode, cwd: sub, name: 'sub', kernel: mode === 'kernel' ? sub : scratch });
  });
});
