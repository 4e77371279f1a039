import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerClient } from '@cwdkit/conformance';
import { osChdir, readOsCwd } from '@cwdkit/core';
import { CAPACITY, createProvider } from '@cwdkit/mutex';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

const home = process.cwd();
const root = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-mutex-')));
const dirs = ['d0', 'd1', 'd2'].map((name) => path.join(root, name)) as [string, string, string];
for (const directory of dirs) fs.mkdirSync(directory);
// Paths beyond the shared capacity (UTF-8 bytes, several bytes a character here), and one that fills it exactly.
const long = path.join(root, ...Array.from({ length: 8 }, (_, i) => `${i}-${'ü日😀'.repeat(20)}`));
const exact = pathOfBytes(CAPACITY);
const unicode = path.join(root, 'ünï cödé', '日本 語', 'emoji 😀');
const asciiBeyond = `${exact}y`; // one ASCII byte over the capacity
// Siblings that share a prefix and end at every offset in a 4-byte word, in ASCII and with a non-ASCII last character.
const siblings = ['a', 'ab', 'abc', 'abcd', 'é', 'aé', 'abé', 'abcé'].map((name) => path.join(root, name));
let worker: WorkerClient;

/** A path under root of exactly `total` bytes, in components of at most 200 bytes (NAME_MAX is 255). */
function pathOfBytes(total: number): string {
  let result = root;
  for (let room = total - result.length - 1; room > 0; room = total - result.length - 1) {
    result = path.join(result, 'x'.repeat(room === 201 ? 150 : Math.min(room, 200)));
  }
  return result;
}
beforeAll(async () => {
  for (const directory of [long, exact, asciiBeyond, unicode, ...siblings])
    fs.mkdirSync(directory, { recursive: true });
  worker = await WorkerClient.start({ module: '@cwdkit/mutex', options: undefined });
});
afterEach(() => osChdir(home));
afterAll(async () => {
  await worker?.terminate();
  fs.rmSync(root, { recursive: true, force: true });
});

it('declares what it does on Node', () => {
  expect(createProvider().capabilities).toEqual({
    workerCoherent: true,
    chdirFromWorker: false,
    externalChange: 'never',
  });
});

it('a worker copies the cwd out of shared memory on a miss, without asking the OS', async () => {
  const provider = createProvider();
  provider.chdir(dirs[0]);
  osChdir(dirs[1]); // behind the provider: only a worker that asks the OS would see dirs[1]
  expect(await worker.cwd()).toBe(dirs[0]);
  // invalidate() in a worker does ask the OS.
  await worker.invalidate();
  expect(await worker.cwd()).toBe(dirs[1]);
});

it('invalidate() on the main thread makes the workers ask the OS', async () => {
  const provider = createProvider();
  provider.chdir(dirs[0]);
  expect(await worker.cwd()).toBe(dirs[0]);
  osChdir(dirs[2]);
  expect(await worker.cwd()).toBe(dirs[0]);
  provider.invalidate();
  expect(await worker.cwd()).toBe(dirs[2]);
});

it('paths of any length and any characters reach the workers intact', async () => {
  expect(Buffer.byteLength(long)).toBeGreaterThan(CAPACITY);
  expect(Buffer.byteLength(exact)).toBe(CAPACITY);
  const provider = createProvider();
  for (const directory of [long, dirs[0], exact, unicode, long, unicode]) {
    provider.chdir(directory);
    expect(provider.cwd()).toBe(directory);
    expect(await worker.cwd()).toBe(directory);
  }
  expect(readOsCwd()).toBe(unicode);
});

it('a chdir that changes only some words of the shared path reaches the workers intact', async () => {
  expect(Buffer.byteLength(asciiBeyond)).toBe(CAPACITY + 1);
  const provider = createProvider();
  const order = [
    ...siblings,
    ...[...siblings].reverse(),
    dirs[0],
    dirs[1],
    root,
    exact,
    asciiBeyond,
    exact,
    dirs[2],
    root,
  ];
  for (const directory of order) {
    provider.chdir(directory);
    osChdir(home); // behind the provider: a worker that reads the shared copy still sees `directory`
    // Beyond the capacity the workers are told to ask the OS.
    expect(await worker.cwd()).toBe(directory === asciiBeyond ? home : directory);
  }
});
