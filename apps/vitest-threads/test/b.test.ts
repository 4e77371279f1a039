import { test } from 'vitest';
import { expectCwd } from './expect-cwd.js';
import { together } from './together.js';

test('into fixtures, then b relative to this worker’s own cwd', async () => {
  process.chdir('fixtures');
  await together();
  for (let round = 0; round < 3; round++) {
    await expectCwd('fixtures');
    process.chdir('b');
    await expectCwd('fixtures/b');
    process.chdir('..');
  }
});
