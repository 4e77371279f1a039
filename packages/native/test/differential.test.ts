import fs from 'node:fs';
import path from 'node:path';
import { hasCode, osChdir, readOsCwd } from '@cwdkit/core';
import { createProvider } from '@cwdkit/native';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { helper, removeTree, scratch } from './support.js';

let home: string;
let root: string;

// A small tree with every kind of target chdir meets: directories, a file, symlinks (to a directory, dangling, a
// loop), unicode, a name over NAME_MAX, and a directory without search permission.
beforeAll(() => {
  home = readOsCwd();
  root = scratch();
  for (const directory of ['a/b/c', 'a/é ü', 'd', 'locked/inner'])
    fs.mkdirSync(path.join(root, directory), { recursive: true });
  fs.writeFileSync(path.join(root, 'a/file'), '');
  fs.symlinkSync('../d', path.join(root, 'a/to-d'));
  fs.symlinkSync('nowhere', path.join(root, 'dangling'));
  fs.symlinkSync('loop', path.join(root, 'loop'));
  fs.chmodSync(path.join(root, 'locked'), 0o000);
});

afterAll(() => {
  osChdir(home);
  fs.chmodSync(path.join(root, 'locked'), 0o755);
  removeTree(root);
});

type Outcome = { ok: true; cwd: string } | { ok: false; code: string; cwd: string };

function attempt(chdir: (directory: string) => void, directory: string): Outcome {
  try {
    chdir(directory);
    return { ok: true, cwd: readOsCwd() };
  } catch (error) {
    if (!hasCode(error)) throw error;
    return { ok: false, code: error.code, cwd: readOsCwd() };
  }
}

const targets = fc.oneof(
  fc.constantFrom('a', 'a/b', 'a/b/c', 'a/é ü', 'd', 'a/to-d', '..', '.', '../..', 'b', 'c', 'a/file', 'dangling'),
  fc.constantFrom('loop', 'locked', 'locked/inner', 'missing', '', 'x'.repeat(300), 'a//b/./c/..'),
  fc.constantFrom('/', 'ROOT', 'ROOT/a/b'),
);

it('strict mode agrees with the OS and with the runtime’s own chdir, over random walks', () => {
  const strict = createProvider({ mode: 'strict' });
  fc.assert(
    fc.property(fc.array(fc.tuple(targets, fc.boolean()), { minLength: 1, maxLength: 25 }), (steps) => {
      osChdir(root);
      for (const [raw, behindOurBack] of steps) {
        const target = raw.startsWith('ROOT') ? root + raw.slice(4) : raw;
        const from = readOsCwd();
        if (behindOurBack) {
          // Other native code moves the process: strict must follow at once.
          helper.chdir(target);
          expect(strict.cwd()).toBe(readOsCwd());
          continue;
        }
        // The same step through the runtime's chdir, then (from the same place) through ours.
        const theirs = attempt(osChdir, target);
        osChdir(from);
        const ours = attempt(strict.chdir, target);
        expect(ours).toEqual(theirs);
        expect(strict.cwd()).toBe(readOsCwd());
      }
    }),
    { numRuns: 150 },
  );
  strict.close();
});
