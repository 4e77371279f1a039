import { expect, test } from 'vitest';
import { expectStart, fixtures } from './start.js';

// check/vitest.no-isolate.config.ts runs this file and two.test.ts in one worker, one after the other: the setup
// line runs twice there, chdir works in both, and the second starts where the first left the worker.
test('chdir in a worker that runs two files (first or second)', () => {
  expectStart('fixtures/c');
  process.chdir(fixtures('b'));
  expect(process.cwd()).toBe(fixtures('b'));
});
