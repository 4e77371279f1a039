import { test } from 'vitest';
import { expectCwd } from './expect-cwd.js';
import { together } from './together.js';

test('into fixtures/a, down into sub and back up with ..', async () => {
  process.chdir('fixtures/a');
  await together();
  for (let round = 0; round < 3; round++) {
    await expectCwd('fixtures/a');
    process.chdir('sub');
    await expectCwd('fixtures/a/sub');
    process.chdir('..');
  }
});
