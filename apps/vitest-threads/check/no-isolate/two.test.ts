import { expect, test } from 'vitest';
import { expectStart, fixtures } from './start.js';

// The twin of one.test.ts.
test('chdir in a worker that runs two files (second or first)', () => {
  expectStart('fixtures/b');
  process.chdir(fixtures('c'));
  expect(process.cwd()).toBe(fixtures('c'));
});
