import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { measureStaleReads, RUNTIME, runConformance, summarize } from '@cwdkit/conformance';
import { judgeRead, spawnRuntime } from '@cwdkit/conformance/harness';
import { describeCwdStrategy } from '@cwdkit/conformance/vitest';
import { readOsCwd } from '@cwdkit/core';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) => pathToFileURL(fileURLToPath(new URL(`./fixtures/${name}.mjs`, import.meta.url))).href;

/** A whole in-process run of the suite on a loaded 2-core machine, storms included, with room. */
const SUITE_BUDGET = 300_000;

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
    ['thread-scope-lexical', ["chdir in a worker changes only that worker's cwd (chdirScope 'thread')"]],
    ['polls-but-blind', ['a chdir behind the provider is seen within boundedMs']],
  ])(
    '%s fails where it should',
    async (name, expected) => {
      const home = readOsCwd();
      const results = await runConformance({ module: fixture(name) });
      // Otherwise every later check would fail for want of a cwd, and pass these expectations for the wrong reason.
      expect(readOsCwd(), 'the suite moved back where it started').toBe(home);
      const failed = results.filter((result) => result.status === 'failed').map((result) => result.title);
      expect(failed).toEqual(expect.arrayContaining(expected));
      expect(summarize(results)).toMatch(/^\d+ passed, [1-9]\d* failed, \d+ skipped$/);
    },
    SUITE_BUDGET,
  );

  // Node's own bug (nodejs/node#61664): every other check passes on it; only the storm catches it, in its paused half.
  it(
    'bump-before-chdir (a shared generation bumped before chdir) fails the stale-read storm',
    async () => {
      const title = 'no stale reads while workers read under a storm of chdirs';
      const [result] = await runConformance({ module: fixture('bump-before-chdir'), only: [title] });
      console.log(result?.detail?.split('\n')[0]);
      expect(result?.status).toBe('failed');
      expect(result?.detail).toMatch(/storm: [1-9]\d* stale of \d+ checked reads/);
    },
    SUITE_BUDGET,
  );
});

// Broken strategies that change the runtime itself run in a child process (the CLI), never in this one.
describe('the suite catches strategies that break the world around them', () => {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const coherence = [
    "after chdir(), the runtime's own process.cwd(), path.resolve, fs and import() agree with the OS",
    "installed, and after uninstall(), the runtime's own answers agree with the OS",
  ];
  it.each(['node', 'bun', 'node24'] as const)(
    'stale-runtime-cwd (the runtime left behind) fails runtime coherence on %s',
    async (runtime) => {
      const only = coherence.flatMap((title) => ['--only', title]);
      const { status, output } = await spawnRuntime(runtime, cli, [fixture('stale-runtime-cwd'), ...only]);
      for (const title of coherence) expect(output).toContain(`not ok - ${title}`);
      expect(status, output).toBe(1);
    },
    120_000,
  );

  it('trusts-is-main-thread fails in a Deno web Worker, and the reference passes there', async () => {
    const title = 'a Deno web Worker, where isMainThread is true, sees main-thread chdirs and chdirs only as declared';
    const broken = await spawnRuntime('deno', cli, [fixture('trusts-is-main-thread'), '--only', title]);
    expect(broken.output).toContain(`not ok - ${title}`);
    expect(broken.status, broken.output).toBe(1);
    const reference = await spawnRuntime('deno', cli, [fixture('reference'), '--only', title]);
    expect(reference.output).toMatch(/^1 passed, 0 failed, 0 skipped$/m);
  }, 120_000);
});

describe('judgeRead (the one stale-read rule of the suite and the bench)', () => {
  const ring = ['/a', '/b', '/c', '/d', '/e', '/f'];
  it('is fresh for the directories of generations before .. after + 1, stale for the others', () => {
    expect(judgeRead('/b', 7, 7, ring)).toBe('fresh'); // generation 7
    expect(judgeRead('/c', 7, 7, ring)).toBe('fresh'); // 8: its chdir may have returned, not yet published
    expect(judgeRead('/a', 7, 7, ring)).toBe('stale');
    expect(judgeRead('/d', 7, 7, ring)).toBe('stale');
  });
  it('cannot tell when the window covers the ring, but a path outside the ring is stale', () => {
    expect(judgeRead('/a', 0, 100, ring)).toBe('cannot tell');
    expect(judgeRead('/elsewhere', 0, 100, ring)).toBe('stale');
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

  it('--help and --version print and exit 0; --list names every check', () => {
    const help = run('--help');
    expect(help.stdout).toMatch(/usage: cwdkit-conformance/);
    expect(help.stdout).toMatch(/Exit codes: 0 passed, 1 a check failed, 2 bad arguments/);
    expect(help.status).toBe(0);
    const version = run('--version');
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(version.status).toBe(0);
    const list = run('--list');
    expect(list.stdout).toMatch(/^chdir to ..$/m);
    expect(list.status).toBe(0);
  });

  it('suggests what was probably meant for an unknown option or check title', () => {
    const option = run('x', '--onyl', 'y');
    expect(option.stderr).toMatch(/did you mean --only\?/);
    expect(option.status).toBe(2);
    const title = run(fixture('reference'), '--only', 'chdir to a relatve path');
    expect(title.stderr).toMatch(/did you mean 'chdir to a relative path'\?/);
    expect(title.status).toBe(2);
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
