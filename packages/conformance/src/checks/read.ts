// Reading: cwd() is the OS cwd, every provider of a strategy agrees, resolve() is path.resolve.
import assert from 'node:assert/strict';
import path from 'node:path';
import { readOsCwd } from '@cwdkit/core';
import type { Check } from './support.js';
export const readChecks: readonly Check[] = [
  {
    title: 'cwd() equals the OS cwd',
    run(context) {
      assert.equal(context.provider().cwd(), readOsCwd());
    },
  },
  {
    title: 'two providers of one strategy agree',
    run(context) {
      const [one, two] = [context.provider(), context.provider()];
      const [a, b] = [context.dir('a'), context.dir('b')];
      one.chdir(a);
      assert.equal(two.cwd(), a);
      two.chdir(b);
      assert.equal(one.cwd(), b);
    },
  },
  {
    title: 'resolve() equals path.resolve against the same cwd',
    run(context) {
      const provider = context.provider();
      provider.chdir(context.dir('res olve'));
      const cwd = readOsCwd();
      const inputs: string[][] = [[], ['src', 'index.ts'], ['../x', './y/'], ['/abs', 'rel'], ['', 'a//b/.', '..']];
      for (const segments of inputs) assert.equal(provider.resolve(...segments), path.resolve(cwd, ...segments));
    },
  },
];
