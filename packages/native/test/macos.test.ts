// macOS's cwd per thread (pthread_fchdir_np), the design ARCHITECTURE.md writes down for thread-cwd there: compiled by
// the workflow's macOS jobs and by check:darwin, run only on a Mac (none here). What the design depends on is asked
// first: that the thread's own cwd is what getcwd(3) and its relative calls see, that no other thread moves, and that -1
// gives the thread the process's cwd back.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageRoot, removeTree, scratch } from './support.js';

const addon = path.join(packageRoot, 'build', 'Release', 'cwdkit.node');
let root: string;

beforeEach(() => {
  root = scratch();
  fs.mkdirSync(path.join(root, 'sub'));
  fs.writeFileSync(path.join(root, 'sub', 'only-in-sub'), '');
});
afterEach(() => removeTree(root));

/** Runs in a worker: its thread's own cwd set to `sub`, what that thread and the main thread see, then dropped. */
const inWorker = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const binding = require(workerData.addon);
const sees = () => ({ cwd: binding.getcwd(), relative: fs.existsSync('only-in-sub') });
const fd = fs.openSync(workerData.sub, 'r');
const set = binding.threadFchdir(fd);
fs.closeSync(fd);
const inSub = sees();
parentPort.postMessage({ set, inSub });
parentPort.once('message', () => {
  const dropped = binding.threadFchdir(-1);
  parentPort.postMessage({ dropped, after: sees() });
});
`;

describe.runIf(process.platform === 'darwin')('threadFchdir() (macOS: pthread_fchdir_np)', () => {
  it("gives a worker's thread a cwd of its own, and -1 gives it the process's back", async () => {
    const sub = fs.realpathSync(path.join(root, 'sub'));
    const worker = new Worker(inWorker, { eval: true, workerData: { addon, sub } });
    const messages: unknown[] = [];
    const next = () => new Promise((resolve) => worker.once('message', resolve));
    try {
      messages.push(await next());
      expect(messages[0]).toEqual({ set: 0, inSub: { cwd: sub, relative: true } });
      // The main thread, meanwhile, unmoved.
      const binding = createRequire(import.meta.url)(addon) as { getcwd(): string };
      expect(binding.getcwd()).toBe(process.cwd());
      expect(fs.existsSync('only-in-sub')).toBe(false);
      worker.postMessage('drop');
      messages.push(await next());
      expect(messages[1]).toEqual({ dropped: 0, after: { cwd: process.cwd(), relative: false } });
    } finally {
      await worker.terminate();
    }
  });
});
