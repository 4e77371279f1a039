// chdir in all its forms changes the real process cwd, and cwd() follows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readOsCwd, runtimeCwd } from '@cwdkit/core';
import { assertChdir, type Check } from './support.js';
export const chdirChecks: readonly Check[] = [
  {
    title: 'chdir to an absolute path',
    run(context) {
      const target = context.dir('absolute');
      assertChdir(context, target, target);
    },
  },
  {
    title: 'chdir to a relative path',
    run(context) {
      const parent = context.dir('parent');
      const child = context.dir('parent', 'child');
      assertChdir(context, parent, parent);
      assertChdir(context, 'child', child);
    },
  },
  {
    title: 'chdir to ..',
    run(context) {
      const parent = context.dir('up');
      const child = context.dir('up', 'down');
      assertChdir(context, child, child);
      assertChdir(context, '..', parent);
    },
  },
  {
    title: 'chdir to a path with unicode and spaces',
    run(context) {
      const target = context.dir('ünïcödé dir', '日本 語', 'emoji 😀');
      assertChdir(context, target, target);
    },
  },
  {
    title: 'chdir through a symlink gives the physical path, as getcwd does',
    run(context) {
      const real = context.dir('real');
      const link = path.join(context.scratch, 'link');
      fs.symlinkSync(real, link);
      assertChdir(context, link, real);
    },
  },
  {
    // Bun's realpath of '.' fails there (ERANGE); getcwd(3) with a buffer it allocates does not.
    title: 'a cwd longer than PATH_MAX can be entered step by step, and cwd() reads it',
    run(context) {
      const provider = context.provider();
      provider.chdir(context.scratch);
      const name = 'l'.repeat(200);
      let expected = context.scratch;
      let depth = 0;
      let made = false;
      try {
        while (Buffer.byteLength(expected) <= 4200) {
          fs.mkdirSync(name); // relative: an absolute path this long is refused
          made = true;
          provider.chdir(name);
          made = false;
          expected = path.join(expected, name);
          depth++;
        }
        // A strategy that hands out the runtime's own answer (naive) may fail as the runtime does (Node: ERANGE).
        const answer = (read: () => string) => {
          try {
            return read();
          } catch (error) {
            return `error ${(error as { code?: unknown }).code}`;
          }
        };
        const allowed = [expected, answer(runtimeCwd)];
        assert.ok(allowed.includes(answer(provider.cwd)), `cwd() gave ${answer(provider.cwd)}`);
        provider.invalidate();
        assert.ok(allowed.includes(answer(provider.cwd)), `after invalidate(), cwd() gave ${answer(provider.cwd)}`);
        assert.equal(readOsCwd(), expected);
      } finally {
        // Relative rmdir on the way up: a recursive rm of the scratch directory would build paths too long to use.
        if (made) fs.rmdirSync(name);
        for (; depth > 0; depth--) {
          provider.chdir('..');
          fs.rmdirSync(name);
        }
      }
    },
  },
];
