import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildProvider,
  checkDirectory,
  defineStrategy,
  didYouMean,
  isClosed,
  originals,
  osChdir,
  readOsCwd,
  runtime,
  SPEC_VERSION,
  sharedMemory,
  threadState,
} from '../src/index.js';

let start: string;
let scratch: string;
beforeEach(() => {
  start = process.cwd();
  scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-core-')));
});
afterEach(() => {
  process.chdir(start);
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('runtime helpers', () => {
  it('detects Node and captures the original functions once', () => {
    expect(runtime).toBe('node');
    expect(SPEC_VERSION).toBe(1);
    expect(originals.processCwd).toBe(process.cwd);
    expect(Object.isFrozen(originals)).toBe(true);
  });

  it('readOsCwd reads the OS, not the runtime cache', () => {
    osChdir(scratch);
    expect(readOsCwd()).toBe(scratch);
    // A chdir Node does not know about: the raw read sees it, process.cwd() keeps its cache.
    process.cwd();
    const inner = path.join(scratch, 'inner');
    fs.mkdirSync(inner);
    osChdir(inner);
    expect(readOsCwd()).toBe(inner);
  });

  it('readOsCwd throws ENOENT shaped like uv_cwd when the cwd was deleted', () => {
    const doomed = path.join(scratch, 'doomed');
    fs.mkdirSync(doomed);
    osChdir(doomed);
    fs.rmdirSync(doomed);
    expect(() => readOsCwd()).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'uv_cwd' }));
  });

  it.each([
    ['', 'ENOENT'],
    ['x'.repeat(5000), 'ENAMETOOLONG'],
    ['missing-dir', 'ENOENT'],
  ])('osChdir(%#) fails with %s in Node shape and changes nothing', (directory, code) => {
    osChdir(scratch);
    expect(() => osChdir(directory)).toThrow(
      expect.objectContaining({ code, syscall: 'chdir', path: scratch, dest: directory }),
    );
    expect(readOsCwd()).toBe(scratch);
  });
});

describe('checkDirectory', () => {
  it.each([[42], [undefined], [null], [{}], [Buffer.from('/tmp')]])('refuses %s with ERR_INVALID_ARG_TYPE', (value) => {
    expect(() => checkDirectory(value)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', name: 'TypeError' }),
    );
  });
  // Worded as the runtime's own: every kind of value Node's determineSpecificType tells apart, against process.chdir.
  const received = (call: () => void) => {
    try {
      call();
    } catch (error) {
      return [(error as { code?: string }).code, (error as Error).message];
    }
    return ['no error'];
  };
  class Foo {}
  it.each([
    undefined,
    null,
    1n,
    0,
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    1.5,
    true,
    false,
    Symbol('s'),
    function named() {},
    () => {},
    class K {},
    {},
    Object.create(null),
    Object.assign(Object.create(null), { a: 1 }),
    { constructor: {} },
    [],
    new Map(),
    new Foo(),
    Buffer.from('/tmp'),
    new URL('file:///tmp'),
  ])('words %s as process.chdir does', (value) => {
    const runtime = received(() => process.chdir(value as string));
    expect(runtime[0]).toBe('ERR_INVALID_ARG_TYPE');
    expect(received(() => checkDirectory(value))).toEqual(runtime);
  });
  it('refuses a NUL byte with ERR_INVALID_ARG_VALUE', () => {
    expect(() => checkDirectory('/tmp\0/etc')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }));
  });
  it('accepts plain strings', () => {
    expect(() => checkDirectory('/tmp')).not.toThrow();
  });
});

describe('buildProvider', () => {
  function counted() {
    const calls = { chdir: 0, invalidate: 0, close: 0 };
    const provider = buildProvider({
      strategy: 'test',
      capabilities: { workerCoherent: false, chdirFromWorker: false, externalChange: 'never' },
      cwd: () => '/w',
      chdir: () => void calls.chdir++,
      invalidate: () => void calls.invalidate++,
      close: () => void calls.close++,
    });
    return { provider, calls };
  }

  it('checks arguments before the strategy sees them', () => {
    const { provider, calls } = counted();
    expect(() => provider.chdir(1 as unknown as string)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
    expect(() => provider.chdir('a\0b')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE' }));
    expect(calls.chdir).toBe(0);
    provider.chdir('/x');
    expect(calls.chdir).toBe(1);
  });

  it('resolves against its own cwd()', () => {
    expect(counted().provider.resolve('src', 'index.ts')).toBe('/w/src/index.ts');
  });

  it('closes once, then refuses every call with ERR_CWDKIT_CLOSED', () => {
    const { provider, calls } = counted();
    provider.close();
    provider[Symbol.dispose]();
    expect(calls.close).toBe(1);
    for (const call of [
      () => provider.cwd(),
      () => provider.chdir('/'),
      () => provider.resolve('a'),
      () => provider.invalidate(),
    ]) {
      expect(call).toThrow(expect.objectContaining({ code: 'ERR_CWDKIT_CLOSED' }));
    }
  });

  it('freezes capabilities', () => {
    expect(Object.isFrozen(counted().provider.capabilities)).toBe(true);
  });

  // close() swaps one provider's methods. Had two providers one V8 map, that would mark the map's methods as mutable
  // and every open provider's cwd() would get 10-20% slower (the bench saw it after its capability probe).
  it('gives every provider a V8 map of its own, so that closing one cannot slow the others', () => {
    const core = pathToFileURL(path.resolve(import.meta.dirname, '../dist/index.js')).href;
    const script = `
      import { buildProvider } from ${JSON.stringify(core)};
      const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)');
      const parts = {
        strategy: 'test',
        capabilities: { workerCoherent: false, chdirFromWorker: false, externalChange: 'never' },
        cwd: () => '/w', chdir() {}, invalidate() {},
      };
      const open = buildProvider(parts);
      const closed = buildProvider(parts);
      closed.close();
      console.log(JSON.stringify({ shared: sameMap(open, buildProvider(parts)), open: open.cwd() }));`;
    const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({ shared: false, open: '/w' });
  });
});

describe('defineStrategy', () => {
  const good = { specVersion: 1 as const, name: 'ok-name', description: 'd', create: () => counted() };
  function counted() {
    return buildProvider({
      strategy: 'ok-name',
      capabilities: { workerCoherent: true, chdirFromWorker: true, externalChange: 'immediate' },
      cwd: () => '/',
      chdir: () => {},
      invalidate: () => {},
    });
  }
  it('accepts a valid definition', () => {
    expect(defineStrategy(good).name).toBe('ok-name');
  });
  it.each([
    [null, /expected an object/],
    [{ ...good, specVersion: 2 }, /specVersion must be 1/],
    [{ ...good, name: 'Bad Name' }, /name must be/],
    [{ ...good, description: undefined }, /no description/],
    [{ ...good, create: 'no' }, /no create/],
  ])('refuses %j', (value, message) => {
    expect(() => defineStrategy(value as never)).toThrow(message);
    expect(() => defineStrategy(value as never)).toThrow(
      expect.objectContaining({ code: 'ERR_CWDKIT_INVALID_STRATEGY' }),
    );
  });
  it.each([
    [undefined, { mdoe: 'strict' }, 'has no option "mdoe"; it takes no options'],
    [
      ['mode', 'intervalMs'],
      { mdoe: 'strict' },
      'has no option "mdoe" (did you mean "mode"?); it takes: mode, intervalMs',
    ],
    [['mode', 'intervalMs'], { Mode: 'strict' }, '(did you mean "mode"?)'],
    [['mode', 'intervalMs'], { intervalMS: 5 }, '(did you mean "intervalMs"?)'],
  ])('with options %j, create(%j) is refused: ERR_INVALID_ARG_VALUE naming the key', (options, given, message) => {
    let created = 0;
    const strategy = defineStrategy<Record<string, unknown>>({
      ...good,
      options: options as never,
      create: () => {
        created++;
        return counted();
      },
    });
    expect(() => strategy.create(given)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_VALUE', message: expect.stringContaining(message) }),
    );
    expect(created).toBe(0);
    expect(strategy.create(options === undefined ? undefined : { mode: 'strict' }).strategy).toBe('ok-name');
    expect(created).toBe(1);
  });
  it('refuses an options declaration that is not a list of names', () => {
    expect(() => defineStrategy({ ...good, options: 'mode' } as never)).toThrow(
      expect.objectContaining({ code: 'ERR_CWDKIT_INVALID_STRATEGY' }),
    );
  });
});

describe('didYouMean', () => {
  const names = ['naive', 'main-thread-cache', 'sab-atomics', 'mutex', 'native'];
  it.each([
    ['Native', 'native'],
    ['sab_atomics', 'sab-atomics'],
    ['native ', 'native'],
    ['mutex.', 'mutex'],
    ['nativ', 'native'],
    ['MAIN_THREAD_CACHE', 'main-thread-cache'],
  ])('%j → %j', (input, expected) => {
    expect(didYouMean(input, names)).toBe(expected);
  });
  it.each(['ring-buffer', 'x', 'completely-different'])('%j → nothing', (input) => {
    expect(didYouMean(input, names)).toBeUndefined();
  });
});

describe('isClosed', () => {
  it('is true only after close()', () => {
    const provider = buildProvider({
      strategy: 'p',
      capabilities: { workerCoherent: true, chdirFromWorker: true, externalChange: 'immediate' },
      cwd: () => '/',
      chdir: () => {},
      invalidate: () => {},
    });
    expect(isClosed(provider)).toBe(false);
    provider.close();
    expect(isClosed(provider)).toBe(true);
  });
});

describe('shared state', () => {
  it('threadState creates once per thread', () => {
    const a = threadState('test-slot', () => ({ n: 1 }));
    const b = threadState('test-slot', () => ({ n: 2 }));
    expect(b).toBe(a);
  });
  it('sharedMemory gives the main thread one buffer per key', () => {
    const memory = sharedMemory('test-memory', 16);
    expect(memory).toBeInstanceOf(SharedArrayBuffer);
    expect(sharedMemory('test-memory', 16)).toBe(memory);
  });
});

describe('refuseWorkerChdir', () => {
  it("refuses every directory in a worker with the runtime's own code, '' and over-long paths included", async () => {
    const { Worker } = await import('node:worker_threads');
    const core = new URL('../dist/index.js', import.meta.url).href;
    const worker = new Worker(
      `import(${JSON.stringify(core)}).then(({ refuseWorkerChdir }) => {
        const codes = ['', 'x'.repeat(5000), '/'].map((directory) => {
          try { refuseWorkerChdir(directory); return 'no error'; } catch (error) { return error.code; }
        });
        require('node:worker_threads').parentPort.postMessage(codes);
      });`,
      { eval: true },
    );
    const codes = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    expect(codes).toEqual(Array(3).fill('ERR_WORKER_UNSUPPORTED_OPERATION'));
  });
});
