import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

test('a working directory of its own in this worker', async () => {
  process.chdir('fixtures/a');
  expect(fs.readFileSync('data.txt', 'utf8')).toBe('fixtures/a\n');
  expect(await fs.promises.readFile('sub/data.txt', 'utf8')).toBe('fixtures/a/sub\n');
  expect(fs.existsSync('a.txt')).toBe(true);
  expect(path.basename(process.cwd())).toBe('a');
  expect(path.resolve('data.txt')).toBe(path.join(process.cwd(), 'data.txt'));
  // A child process starts in this worker's directory too.
  expect(execFileSync(process.execPath, ['-p', 'process.cwd()'], { encoding: 'utf8' }).trim()).toBe(process.cwd());

  process.chdir('..');
  expect(fs.existsSync('fixtures.txt')).toBe(true);
});
