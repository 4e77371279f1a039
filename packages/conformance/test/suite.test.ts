import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { measureStaleReads, RUNTIME, runConformance, summarize } from '@cwdkit/conformance';
import { describeCwdStrategy } from '@cwdkit/conformance/vitest';
import { readOsCwd } from '@cwdkit/core';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) => pathToFileURL(fileURLToPath(new URL(`./fixtures/${name}.mjs`, import.meta.url))).href;

// The suite tests itself: it passes on the simplest correct strategy, on Node, Bun and Deno...
describeCwdStrategy(fixture('reference'));

// ...and fails on strategies broken on purpose, at the checks that should catch each fault.
describe('the suite catches broken strategies', () => {
  it.each([
    [
      'never-invalidates',
      [
        'chdir to an absolute path',
        'chdir to a relative path',
        'two providers of one strategy agree',
        'invalidate() reveals a chdir made behind the provider',
        'random sequences of chdir, cwd, invalidate and resolve match the OS',
      ],
    ],
    [
      'dirty-failure',
      [
        'chdir to a missing path fails with ENOENT',
        'chdir to a file fails with ENOTDIR',
        'chdir to a path over PATH_MAX fails with ENAMETOOLONG',
        'chdir into a directory without search permission fails with EACCES',
        'random sequences of chdir, cwd, invalidate and resolve match the OS',
      ],
    ],
    [
      'claims-coherent',
      ['a worker sees a main-thread chdir', 'no stale reads while workers read under a storm of chdirs'],
    ],
  ])('%s fails where it should', async (name, expected) => {
    const home = readOsCwd();
    const results = await runConformance({ module: fixture(name) });
    // Otherwise every later check would fail for want of a cwd, and pass these expectations for the wrong reason.
    expect(readOsCwd(), 'the suite moved back where it started').toBe(home);
    const failed = results.filter((result) => result.status === 'failed').map((result) => result.title);
    expect(failed).toEqual(expect.arrayContaining(expected));
    expect(summarize(results)).toMatch(/^\d+ passed, [1-9]\d* failed, \d+ skipped$/);
  });

  // Node's own bug (nodejs/node#61664): every other check passes on it; only the storm catches it, in its paused half.
  it('bump-before-chdir (a shared generation bumped before chdir) fails the stale-read storm', async () => {
    const title = 'no stale reads while workers read under a storm of chdirs';
    const [result] = await runConformance({ module: fixture('bump-before-chdir'), only: [title] });
    console.log(result?.detail?.split('\n')[0]);
    expect(result?.status).toBe('failed');
    expect(result?.detail).toMatch(/storm: [1-9]\d* stale of \d+ checked reads/);
  });
});

describe('measureStaleReads', () => {
  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses pauseUs %s with ERR_OUT_OF_RANGE', async (pauseUs) => {
    const before = process.cwd();
    await expect(measureStaleReads({ module: RUNTIME, pauseUs })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    expect(process.cwd()).toBe(before);
  });

  it('fails, instead of waiting for ever, when a reader cannot load the strategy', async () => {
    const before = process.cwd();
    await expect(measureStaleReads({ module: fixture('fails-in-workers') })).rejects.toThrow(
      /refuses to load in a worker/,
    );
    expect(process.cwd()).toBe(before);
  });
});

describe('cwdkit-conformance CLI', () => {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

  it('exits 1 and reports the failures of a broken strategy', () => {
    const child = run(fixture('never-invalidates'), '--only', 'chdir to a relative path');
    expect(child.stdout).toMatch(/^not ok - chdir to a relative path$/m);
    expect(child.stdout).toMatch(/^0 passed, 1 failed, 0 skipped$/m);
    expect(child.status).toBe(1);
  });

  it.each([
    [[], /expected exactly one strategy module/],
    [['a', 'b'], /expected exactly one strategy module/],
    [['x', '--options', '{nope'], /--options is not JSON/],
    [['x', '--bogus'], /Unknown option/],
  ])('refuses %j with usage and exit 2', (args, message) => {
    const child = run(...args);
    expect(child.stderr).toMatch(message);
    expect(child.stderr).toMatch(/usage: cwdkit-conformance/);
    expect(child.status).toBe(2);
  });

  it('refuses an unknown check title and a module that is no strategy', () => {
    const unknown = run(fixture('reference'), '--only', 'no such check');
    expect(unknown.stderr).toMatch(/ERR_CWDKIT_UNKNOWN_CHECK: No such check: no such check/);
    expect(unknown.status).toBe(2);
    const notStrategy = run('node:path');
    expect(notStrategy.stderr).toMatch(/ERR_CWDKIT_INVALID_STRATEGY/);
    expect(notStrategy.status).toBe(2);
  });
});
