import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { expectCwd, root } from './expect-cwd.js';
import { together } from './together.js';

test('into fixtures/c by its absolute path; callbacks, streams and an async child follow', async () => {
  process.chdir(path.join(root, 'fixtures/c'));
  await together();
  for (let round = 0; round < 3; round++) {
    await expectCwd('fixtures/c');
    expect(fs.readdirSync('.').sort()).toEqual(['c.txt', 'data.txt']);
    expect(await promisify(fs.readFile)('data.txt', 'utf8')).toBe('fixtures/c\n');
    expect(await text(fs.createReadStream('data.txt'))).toBe('fixtures/c\n');
    const child = await promisify(execFile)(process.execPath, [
      '-e',
      'process.stdout.write(require("fs").readFileSync("data.txt"))',
    ]);
    expect(child.stdout).toBe('fixtures/c\n');
  }
});
