import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerClient } from '@cwdkit/conformance';
import { osChdir, readOsCwd } from '@cwdkit/core';
import cache, { createProvider, strategy } from '@cwdkit/main-thread-cache';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let home: string;
let scratch: string;
const dirs: string[] = [];
beforeEach(() => {
  home = readOsCwd();
  scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-mtc-')));
  dirs.length = 0;
  for (const name of ['a', 'b']) {
    dirs.push(path.join(scratch, name));
    fs.mkdirSync(path.join(scratch, name));
  }
});
afterEach(() => {
  const provider = createProvider();
  provider.chdir(home);
  provider.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('@cwdkit/main-thread-cache', () => {
  it('exports one strategy three ways', () => {
    expect(cache).toBe(strategy);
    expect(createProvider().strategy).toBe('main-thread-cache');
  });

  it('answers from its cache until its own chdir or invalidate()', () => {
    const [a, b] = dirs as [string, string];
    using provider = createProvider();
    provider.chdir(a);
    expect(provider.cwd()).toBe(a);
    osChdir(b); // behind its back: the cached string stays, as externalChange 'never' says
    expect(provider.cwd()).toBe(a);
    provider.invalidate();
    expect(provider.cwd()).toBe(b);
  });

  it('keeps one string per thread: a worker keeps its own until it invalidates', async () => {
    const [a, b] = dirs as [string, string];
    using provider = createProvider();
    provider.chdir(a);
    const worker = await WorkerClient.start({ module: '@cwdkit/main-thread-cache', options: undefined });
    try {
      expect(await worker.cwd()).toBe(a);
      provider.chdir(b);
      expect(provider.cwd()).toBe(b);
      expect(await worker.cwd()).toBe(a); // not worker-coherent, as declared
      await worker.invalidate();
      expect(await worker.cwd()).toBe(b);
    } finally {
      await worker.terminate();
    }
  });
});
