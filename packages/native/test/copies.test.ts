import { pathToFileURL } from 'node:url';
import { readOsCwd } from '@cwdkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, helper, removeTree, scratch, untilPolled } from './support.js';

type Native = typeof import('@cwdkit/native');

// Two installed copies of @cwdkit/native in one process (npm nests two versions): each loads its own .node file.
describe('two installed copies of the package', () => {
  let root: string;
  let home: string;
  let one: Native;
  let two: Native;

  beforeAll(async () => {
    home = readOsCwd();
    root = scratch();
    one = await import(pathToFileURL(copyPackage(`${root}/one`)).href);
    two = await import(pathToFileURL(copyPackage(`${root}/two`)).href);
  });

  afterAll(() => {
    process.chdir(home);
    removeTree(root);
  });

  it('are two copies', () => {
    expect(one.strategy).not.toBe(two.strategy);
  });

  it('share one generation: a chdir or invalidate() through one is seen by the other', () => {
    using first = one.createProvider();
    using second = two.createProvider();
    first.chdir(`${root}/one`);
    expect(second.cwd()).toBe(`${root}/one`);
    second.chdir(`${root}/two`);
    expect(first.cwd()).toBe(`${root}/two`);
    expect(helper.chdir(root)).toBe(0); // behind both backs
    second.invalidate();
    expect(first.cwd()).toBe(root);
  });

  it('a watch thread of one copy bumps the generation the other copy reads', () => {
    using cached = one.createProvider({ mode: 'cached' });
    using _watch = two.createProvider({ mode: 'watch', intervalMs: 2 });
    cached.chdir(root);
    expect(cached.cwd()).toBe(root);
    expect(helper.chdir(`${root}/one`)).toBe(0);
    untilPolled(two.watchPolls); // the watch copy's own polls: a busy machine only makes it wait longer
    expect(cached.cwd()).toBe(`${root}/one`);
  });
});
