import { describe, expect, it } from 'vitest';
import { fixture, removeTree, run, runtimes, scratch } from './support.js';

/** Runs a fixture that prints each disagreement it finds, in a fresh process, on a fresh scratch directory. */
async function expectNoDisagreement(prefix: readonly string[], name: string): Promise<void> {
  const root = scratch();
  try {
    const ended = await run([...prefix, fixture(name), root], 60_000);
    expect(`${ended.stdout}${ended.stderr}`).toBe('');
    expect(ended).toMatchObject({ status: 0, signal: null });
  } finally {
    removeTree(root);
  }
}

// The runtime's own answers after provider.chdir() (test/fixtures/coherence.mjs).
describe.each(runtimes)('runtime coherence on %s', (name, prefix) => {
  it.skipIf(!prefix)(
    `process.cwd(), path.resolve, fs and import() follow provider.chdir, installed or not${prefix ? '' : ` [${name} is not installed]`}`,
    () => expectNoDisagreement(prefix as readonly string[], 'coherence.mjs'),
  );
});

const deno = runtimes.find(([name]) => name === 'deno')?.[1];

describe('a Deno web Worker (isMainThread is true there)', () => {
  it.skipIf(!deno)('sees every chdir of the main thread and cannot chdir behind its cache', () =>
    expectNoDisagreement(deno as readonly string[], 'web-worker.mjs'),
  );
});
