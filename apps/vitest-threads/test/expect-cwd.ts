import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/** The example's folder, spelled as the OS spells a cwd (the physical path). */
export const root = fs.realpathSync(path.join(import.meta.dirname, '..'));
/** Each fixture folder holds data.txt (its own path, e.g. "fixtures/a/sub") and a marker named after it (sub.txt). */
const markers = ['fixtures', 'a', 'sub', 'b', 'c'].map((name) => `${name}.txt`);

/** Asserts that this thread is in `fixture` (e.g. 'fixtures/a/sub') for everything that takes a relative path. */
export async function expectCwd(fixture: string): Promise<void> {
  const dir = path.join(root, fixture);
  expect(process.cwd()).toBe(dir);
  expect(path.resolve('data.txt')).toBe(path.join(dir, 'data.txt'));
  expect(fs.readFileSync('data.txt', 'utf8')).toBe(`${fixture}\n`);
  expect(await fs.promises.readFile('data.txt', 'utf8')).toBe(`${fixture}\n`);
  const marker = `${path.basename(dir)}.txt`;
  expect(markers.filter((name) => fs.existsSync(name))).toEqual([marker]);
  // A child started without a cwd option starts in this thread's cwd.
  expect(execFileSync(process.execPath, ['-p', 'process.cwd()'], { encoding: 'utf8' }).trim()).toBe(dir);
}
