import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerClient } from '@cwdkit/conformance';
import { osChdir, readOsCwd } from '@cwdkit/core';
import { createProvider } from '@cwdkit/sab-atomics';
import { afterAll, afterEach, expect, it } from 'vitest';

const home = process.cwd();
const root = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-sab-')));
const dirs = ['d0', 'd1', 'd2'].map((name) => path.join(root, name)) as [string, string, string];
for (const directory of dirs) fs.mkdirSync(directory);
afterEach(() => osChdir(home));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

it('declares what it does on Node', () => {
  expect(createProvider().capabilities).toEqual({
    workerCoherent: true,
    chdirFromWorker: false,
    externalChange: 'never',
  });
});

it('the main thread trusts its own chdirs: a chdir behind its back is seen only after invalidate()', () => {
  const provider = createProvider();
  provider.chdir(dirs[0]);
  expect(provider.cwd()).toBe(dirs[0]); // read once after the chdir, then cached
  osChdir(dirs[1]);
  expect(provider.cwd()).toBe(dirs[0]);
  provider.invalidate();
  expect(provider.cwd()).toBe(dirs[1]);
});

it('invalidate() on the main thread makes the workers ask the OS too', async () => {
  const provider = createProvider();
  provider.chdir(dirs[0]);
  const worker = await WorkerClient.start({ module: '@cwdkit/sab-atomics', options: undefined });
  try {
    expect(await worker.cwd()).toBe(dirs[0]);
    osChdir(dirs[2]); // behind every provider's back: the worker keeps its cache
    expect(await worker.cwd()).toBe(dirs[0]);
    provider.invalidate();
    expect(await worker.cwd()).toBe(dirs[2]);
    expect(readOsCwd()).toBe(dirs[2]);
  } finally {
    await worker.terminate();
  }
});
