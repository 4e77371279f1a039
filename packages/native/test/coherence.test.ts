import { describe, expect, it } from 'vitest';
import { fixture, removeTree, run, runtimes, scratch } from './support.js';

// The runtime's own answers after provider.chdir(), in a fresh process per runtime (test/fixtures/coherence.mjs).
describe.each(runtimes)('runtime coherence on %s', (name, prefix) => {
  it.skipIf(!prefix)(
    `process.cwd(), path.resolve, fs and import() follow provider.chdir, installed or not${prefix ? '' : ` [${name} is not installed]`}`,
    async () => {
      const root = scratch();
      try {
        const ended = await run([...(prefix as string[]), fixture('coherence.mjs'), root], 60_000);
        expect(`${ended.stdout}${ended.stderr}`).toBe('');
        expect(ended).toMatchObject({ status: 0, signal: null });
      } finally {
        removeTree(root);
      }
    },
  );
});
