import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { osChdir, readOsCwd } from '@cwdkit/core';
import native, {
  createProvider,
  type NativeOptions,
  napi,
  sharesGeneration,
  strategy,
  watchPolls,
  watchThreads,
} from '@cwdkit/native';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distCjs, helper, inWorker, nextMessage, pwd, removeTree, scratch, sleep, untilPolled } from './support.js';

const MODES = ['strict', 'cached', 'watch'] as const;
let home: string;
let root: string;

beforeEach(() => {
  home = readOsCwd();
  root = scratch();
});

afterEach(() => {
  osChdir(home);
  removeTree(root);
});

function touch(name: string): string {
  fs.writeFileSync(path.join(root, name), '');
  return path.join(root, name);
}

function symlink(name: string, target: string): string {
  fs.symlinkSync(target, path.join(root, name));
  return path.join(root, name);
}

function mkdir(name: string): string {
  const directory = path.join(root, name);
  fs.mkdirSync(directory, { recursive: true });
  return directory;
}

describe('the strategy', () => {
  it('is exported as default, strategy and createProvider', () => {
    expect(native).toBe(strategy);
    expect(strategy.name).toBe('native');
    expect(createProvider().strategy).toBe('native');
  });

  it('declares what each mode can do', () => {
    // Node caches the cwd per thread: a worker's chdir could not clear the main thread's cache (README).
    const coherent = { workerCoherent: true, chdirFromWorker: false };
    expect(createProvider().capabilities).toEqual({ ...coherent, externalChange: 'never' });
    expect(createProvider({ mode: 'strict' }).capabilities).toEqual({ ...coherent, externalChange: 'immediate' });
    expect(createProvider({ mode: 'cached' }).capabilities).toEqual({ ...coherent, externalChange: 'never' });
    using watch = createProvider({ mode: 'watch' });
    expect(watch.capabilities).toEqual({ ...coherent, externalChange: 'bounded', boundedMs: 50 });
    using slow = createProvider({ mode: 'watch', intervalMs: 200 });
    expect(slow.capabilities.boundedMs).toBe(230);
  });

  it.each([
    [null, TypeError, 'ERR_INVALID_ARG_TYPE'],
    ['watch', TypeError, 'ERR_INVALID_ARG_TYPE'],
    [{ mode: 'fast' }, TypeError, 'ERR_INVALID_ARG_VALUE'],
    [{ mode: 'strict', intervalMs: 5 }, TypeError, 'ERR_INVALID_ARG_VALUE'],
    [{ mode: 'watch', intervalMs: '5' }, TypeError, 'ERR_INVALID_ARG_TYPE'],
    [{ mode: 'watch', intervalMs: 0 }, RangeError, 'ERR_OUT_OF_RANGE'],
    [{ mode: 'watch', intervalMs: -1 }, RangeError, 'ERR_OUT_OF_RANGE'],
    [{ mode: 'watch', intervalMs: 1.5 }, RangeError, 'ERR_OUT_OF_RANGE'],
    [{ mode: 'watch', intervalMs: Number.NaN }, RangeError, 'ERR_OUT_OF_RANGE'],
    [{ mode: 'watch', intervalMs: Number.POSITIVE_INFINITY }, RangeError, 'ERR_OUT_OF_RANGE'],
  ])('refuses the options %j with %s %s, starting nothing', (options, type, code) => {
    const threads = watchThreads();
    expect(() => createProvider(options as NativeOptions)).toThrow(expect.objectContaining({ code }));
    expect(() => createProvider(options as NativeOptions)).toThrow(type);
    expect(watchThreads()).toBe(threads);
  });
});

describe.each(MODES)('mode %s: chdir', (mode) => {
  it.each([
    ['ENOENT', () => path.join(root, 'missing')],
    ['ENOTDIR', () => touch('file')],
    ['ENAMETOOLONG', () => path.join(root, 'x'.repeat(300))],
    ['ENOENT', () => ''],
    ['ELOOP', () => symlink('loop', 'loop')],
  ])('fails with %s shaped like Node, leaving everything as it was', (code, target) => {
    using provider = createProvider({ mode });
    provider.chdir(root);
    const dest = target();
    const errno = -((os.constants.errno as Record<string, number>)[code] as number);
    expect(() => provider.chdir(dest)).toThrow(
      expect.objectContaining({ code, errno, syscall: 'chdir', path: root, dest }),
    );
    expect(provider.cwd()).toBe(root);
    expect(readOsCwd()).toBe(root);
  });

  it('reads a cwd longer than PATH_MAX in full', () => {
    using provider = createProvider({ mode });
    provider.chdir(root);
    const segment = 's'.repeat(250);
    let expected = root;
    while (expected.length <= 5000) {
      fs.mkdirSync(segment);
      provider.chdir(segment);
      expected += `/${segment}`;
    }
    expect(provider.cwd()).toBe(expected);
    expect(pwd()).toBe(expected);
    provider.chdir(root);
    expect(provider.cwd()).toBe(root);
  });
});

describe('a chdir(2) made by other native code', () => {
  it('strict sees it on the next call', () => {
    using provider = createProvider({ mode: 'strict' });
    for (const name of ['a', 'b', 'c']) {
      provider.cwd();
      expect(helper.chdir(mkdir(name))).toBe(0);
      expect(provider.cwd()).toBe(path.join(root, name));
    }
  });

  it('cached keeps its answer until invalidate(), on every thread', async () => {
    using provider = createProvider({ mode: 'cached' });
    provider.chdir(root);
    expect(provider.cwd()).toBe(root);
    const { worker, messages } = inWorker(`
      const provider = native.createProvider();
      parentPort.postMessage(provider.cwd());
      parentPort.once('message', () => {
        parentPort.postMessage(provider.cwd());
        parentPort.once('message', () => parentPort.postMessage(provider.cwd()));
      });`);
    expect(await nextMessage(worker)).toBe(root);
    const target = mkdir('behind');
    expect(helper.chdir(target)).toBe(0);
    sleep(50);
    expect(provider.cwd()).toBe(root); // 'never': declared, and true
    worker.postMessage('read');
    expect(await nextMessage(worker)).toBe(root);
    provider.invalidate();
    expect(provider.cwd()).toBe(target);
    worker.postMessage('read');
    await messages;
    expect((await messages).at(-1)).toBe(target);
  });

  // No clock: a change is seen once the watch thread has polled after it (untilPolled counts its polls), however long
  // a busy machine makes that take; a watcher that never notices, or notices a poll late, still fails.
  it.each([undefined, 2, 30])('watch (intervalMs %s) sees it at its next poll', (intervalMs) => {
    using provider = createProvider({ mode: 'watch', intervalMs });
    for (const name of ['a', 'b', 'c']) {
      provider.cwd();
      const target = mkdir(name);
      expect(helper.chdir(target)).toBe(0);
      untilPolled(watchPolls);
      expect(provider.cwd()).toBe(target);
    }
  });

  it('watch polls no more often than its interval', () => {
    using _slow = createProvider({ mode: 'watch', intervalMs: 200 });
    const [polls, started] = [watchPolls(), performance.now()];
    sleep(450);
    // A busy machine can only make it poll less often: at most one poll per 200 ms, plus one (a spurious wake-up).
    expect(watchPolls() - polls).toBeLessThanOrEqual(Math.floor((performance.now() - started) / 200) + 1);
  });

  it('watch cannot miss a chdir and a chdir back between two polls (A→B→A)', () => {
    const [a, b] = [mkdir('a'), mkdir('b')];
    osChdir(a);
    using provider = createProvider({ mode: 'watch', intervalMs: 100 }); // its first reading: A
    provider.chdir(b);
    expect(provider.cwd()).toBe(b); // cached under the generation of our chdir
    expect(helper.chdir(a)).toBe(0); // back to A behind our back, long before the next poll
    untilPolled(watchPolls);
    expect(provider.cwd()).toBe(a);
  });

  it('watch notices a deleted cwd', () => {
    using provider = createProvider({ mode: 'watch', intervalMs: 2 });
    provider.chdir(mkdir('doomed'));
    expect(provider.cwd()).toBe(path.join(root, 'doomed'));
    fs.rmdirSync(path.join(root, 'doomed'));
    untilPolled(watchPolls);
    expect(() => provider.cwd()).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'uv_cwd' }));
    expect(() => provider.cwd()).toThrow(expect.objectContaining({ message: messageOfOsCwd() }));
  });
});

/** What core (and so every other strategy) says when the OS cannot give the cwd. */
function messageOfOsCwd(): string {
  try {
    return `unexpectedly read ${readOsCwd()}`;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('a deleted cwd', () => {
  it.each(MODES)('mode %s throws the runtime’s wording, as every strategy does (not strerror)', (mode) => {
    using provider = createProvider({ mode });
    provider.chdir(mkdir('doomed'));
    fs.rmdirSync(path.join(root, 'doomed'));
    provider.invalidate();
    const expected = messageOfOsCwd();
    expect(expected).toMatch(/^ENOENT: (.* )?no such file or directory/); // the runtime's lowercase, not strerror's
    expect(() => provider.cwd()).toThrow(expect.objectContaining({ code: 'ENOENT', message: expected }));
  });
});

describe('threads', () => {
  it('chdir from a worker gets Node’s refusal and changes nothing: the main thread’s cache could not follow', async () => {
    using provider = createProvider();
    provider.chdir(root);
    const target = mkdir('from-worker');
    const writer = inWorker(
      `try { native.createProvider().chdir(workerData); parentPort.postMessage('moved'); }
       catch (error) { parentPort.postMessage(error.code); }`,
      target,
    );
    expect(await writer.messages).toEqual(['ERR_WORKER_UNSUPPORTED_OPERATION']);
    expect(provider.cwd()).toBe(root);
    expect(process.cwd()).toBe(root);
    expect(readOsCwd()).toBe(root);
  });

  it('an ESM and a CommonJS copy of the package in one thread agree', () => {
    const cjs = createRequire(import.meta.url)(distCjs) as typeof import('@cwdkit/native');
    expect(cjs.strategy).not.toBe(strategy); // really two copies
    using esmProvider = createProvider();
    using cjsProvider = cjs.createProvider();
    esmProvider.chdir(root);
    expect(cjsProvider.cwd()).toBe(root);
    cjsProvider.chdir(mkdir('cjs'));
    expect(esmProvider.cwd()).toBe(path.join(root, 'cjs'));
  });

  it('the generation is shared memory on Node', () => {
    expect(sharesGeneration).toBe(true);
  });
});

// Counted by the addon itself (watchThreads()): V8, libuv and the runtime start threads of their own whenever they like,
// so the process's thread count (/proc/self/task) cannot tell one watch thread from theirs.
describe('watcher threads (the addon’s own count)', () => {
  it('stop on close() and on dispose', () => {
    const before = watchThreads();
    const provider = createProvider({ mode: 'watch' });
    expect(watchThreads()).toBe(before + 1);
    provider.close();
    expect(watchThreads()).toBe(before);
    {
      using _watch = createProvider({ mode: 'watch', intervalMs: 1 });
      expect(watchThreads()).toBe(before + 1);
    }
    expect(watchThreads()).toBe(before);
  });

  it('are shared: 300 unclosed watch providers of one thread hold one thread', () => {
    const before = watchThreads();
    const providers = Array.from({ length: 300 }, (_, i) =>
      createProvider({ mode: 'watch', intervalMs: 1 + (i % 50) }),
    );
    expect(watchThreads()).toBe(before + 1);
    for (const provider of providers.slice(1)) provider.close();
    expect(watchThreads()).toBe(before + 1);
    providers[0]?.close();
    expect(watchThreads()).toBe(before);
  });

  it('stop when an unclosed provider is garbage-collected', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const before = watchThreads();
    (() => createProvider({ mode: 'watch' }).cwd())();
    expect(watchThreads()).toBe(before + 1);
    // Collections and turns of the event loop (where finalizers run), counted, not timed: a busy machine only slows them.
    for (let round = 0; round < 200 && watchThreads() > before; round++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(watchThreads()).toBe(before);
  });

  it('stop when their worker exits without closing them, before its exit event', async () => {
    const before = watchThreads();
    const { worker, messages } = inWorker(`
      globalThis.watching = [1, 2, 3].map(() => native.createProvider({ mode: 'watch', intervalMs: 1 }));
      parentPort.postMessage(native.watchThreads());
      parentPort.once('message', () => {}); // stays alive until terminated`);
    expect(await nextMessage(worker)).toBe(before + 1); // one thread for the worker's three, counted process-wide
    expect(watchThreads()).toBe(before + 1);
    await worker.terminate();
    await messages.catch(() => {});
    // The worker's environment cleanup hook joined its watch thread before the worker was reported gone.
    expect(watchThreads()).toBe(before);
  });

  it('are none of the runtime’s own threads: a worker that watches nothing adds none', async () => {
    const before = watchThreads();
    const { worker, messages } = inWorker(`
      native.createProvider().cwd();
      parentPort.postMessage(native.watchThreads());`);
    expect(await nextMessage(worker)).toBe(before);
    await messages;
    expect(watchThreads()).toBe(before);
  });
});

describe('napi (for the benchmarks)', () => {
  it('noop does nothing, getcwd is the raw getcwd', () => {
    expect(napi.noop()).toBeUndefined();
    osChdir(root);
    expect(napi.getcwd()).toBe(root);
    expect(helper.chdir(mkdir('raw'))).toBe(0);
    expect(napi.getcwd()).toBe(path.join(root, 'raw'));
  });
});
