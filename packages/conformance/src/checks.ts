import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { type CwdCapabilities, type CwdProvider, osChdir, readOsCwd, runtime, runtimeCwd } from '@cwdkit/core';
import fc from 'fast-check';
import type { CheckContext } from './context.js';
import { measureStaleReads } from './stale-reads.js';

export interface Check {
  readonly title: string;
  /** Why these capabilities rule the check out, or undefined when it applies. */
  skip?(capabilities: CwdCapabilities): string | undefined;
  run(context: CheckContext): void | Promise<void>;
}

/** Thrown by a check that finds at run time that it cannot run here; runners report it as skipped, with the reason. */
export class CheckSkipped extends Error {}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The error a failed chdir must throw (Node's shape), and the proof that nothing moved. */
function assertRefused(provider: CwdProvider, directory: unknown, code: string): void {
  const before = readOsCwd();
  const cached = provider.cwd();
  assert.throws(
    () => provider.chdir(directory as string),
    (error: NodeJS.ErrnoException & { dest?: string }) => {
      assert.ok(error instanceof Error, 'a failed chdir throws an Error');
      assert.equal(error.code, code);
      if (code.startsWith('E') && !code.startsWith('ERR_')) {
        assert.equal(error.syscall, 'chdir');
        assert.equal(typeof error.path, 'string', 'error.path is the cwd when chdir was called');
        assert.equal(error.dest, directory, 'error.dest is the directory asked for');
      }
      return true;
    },
  );
  assert.equal(readOsCwd(), before, 'a failed chdir leaves the OS cwd as it was');
  assert.equal(provider.cwd(), cached, 'a failed chdir leaves cwd() as it was');
  provider.invalidate();
  assert.equal(provider.cwd(), before, 'a failed chdir leaves nothing to invalidate');
}

function assertChdir(context: CheckContext, directory: string, expected: string): void {
  const provider = context.provider();
  provider.chdir(directory);
  assert.equal(provider.cwd(), expected);
  assert.equal(readOsCwd(), expected, 'chdir changes the real process cwd');
}

const workerCoherent = (capabilities: CwdCapabilities) =>
  capabilities.workerCoherent ? undefined : 'not worker-coherent (capabilities.workerCoherent is false)';

/** Whether this process ignores a directory's mode (root with CAP_DAC_OVERRIDE): a real read, not access(2) emulation. */
function isPrivileged(directory: string): boolean {
  try {
    fs.readdirSync(directory);
    return true;
  } catch {
    return false;
  }
}

export const CHILD_ENV = 'CWDKIT_CONFORMANCE_CHILD';
const EACCES_TITLE = 'chdir into a directory without search permission fails with EACCES';

/** Runs one check of this suite in a child process of the same runtime, with every capability dropped. */
function runUnprivileged(context: CheckContext, title: string): void {
  const cli = fileURLToPath(new URL('./cli.js', import.meta.url));
  const runtimeArgs = runtime === 'deno' ? ['run', '-A'] : [];
  const args = ['--bounding-set=-all', '--inh-caps=-all', '--no-new-privs', process.execPath, ...runtimeArgs, cli];
  args.push(context.module, '--options', JSON.stringify(context.options ?? null), '--only', title);
  const child = spawnSync('setpriv', args, { encoding: 'utf8', env: { ...process.env, [CHILD_ENV]: '1' } });
  if (child.error)
    throw new CheckSkipped(`running privileged, and setpriv could not drop them: ${child.error.message}`);
  const output = `${child.stdout}${child.stderr}`;
  assert.equal(child.status, 0, `the unprivileged child failed:\n${output}`);
  assert.match(output, /^1 passed, 0 failed/m, `the unprivileged child did not run the check:\n${output}`);
}

export const checks: readonly Check[] = [
  {
    title: 'cwd() equals the OS cwd',
    run(context) {
      assert.equal(context.provider().cwd(), readOsCwd());
    },
  },
  {
    title: 'chdir to an absolute path',
    run(context) {
      const target = context.dir('absolute');
      assertChdir(context, target, target);
    },
  },
  {
    title: 'chdir to a relative path',
    run(context) {
      const parent = context.dir('parent');
      const child = context.dir('parent', 'child');
      assertChdir(context, parent, parent);
      assertChdir(context, 'child', child);
    },
  },
  {
    title: 'chdir to ..',
    run(context) {
      const parent = context.dir('up');
      const child = context.dir('up', 'down');
      assertChdir(context, child, child);
      assertChdir(context, '..', parent);
    },
  },
  {
    title: 'chdir to a path with unicode and spaces',
    run(context) {
      const target = context.dir('ünïcödé dir', '日本 語', 'emoji 😀');
      assertChdir(context, target, target);
    },
  },
  {
    title: 'chdir through a symlink gives the physical path, as getcwd does',
    run(context) {
      const real = context.dir('real');
      const link = path.join(context.scratch, 'link');
      fs.symlinkSync(real, link);
      assertChdir(context, link, real);
    },
  },
  {
    title: 'two providers of one strategy agree',
    run(context) {
      const [one, two] = [context.provider(), context.provider()];
      const [a, b] = [context.dir('a'), context.dir('b')];
      one.chdir(a);
      assert.equal(two.cwd(), a);
      two.chdir(b);
      assert.equal(one.cwd(), b);
    },
  },
  {
    title: 'resolve() equals path.resolve against the same cwd',
    run(context) {
      const provider = context.provider();
      provider.chdir(context.dir('res olve'));
      const cwd = readOsCwd();
      const inputs: string[][] = [[], ['src', 'index.ts'], ['../x', './y/'], ['/abs', 'rel'], ['', 'a//b/.', '..']];
      for (const segments of inputs) assert.equal(provider.resolve(...segments), path.resolve(cwd, ...segments));
    },
  },
  {
    title: 'chdir with a non-string fails with ERR_INVALID_ARG_TYPE',
    run(context) {
      const provider = context.provider();
      for (const value of [undefined, null, 42, {}, Buffer.from('/')])
        assertRefused(provider, value, 'ERR_INVALID_ARG_TYPE');
    },
  },
  {
    title: 'chdir with a NUL byte fails with ERR_INVALID_ARG_VALUE',
    run(context) {
      const provider = context.provider();
      const inside = context.dir('nul');
      assertRefused(provider, `${inside}\0/etc`, 'ERR_INVALID_ARG_VALUE');
    },
  },
  {
    title: 'chdir to a missing path fails with ENOENT',
    run(context) {
      assertRefused(context.provider(), path.join(context.scratch, 'missing'), 'ENOENT');
    },
  },
  {
    title: "chdir to '' fails with ENOENT",
    run(context) {
      assertRefused(context.provider(), '', 'ENOENT');
    },
  },
  {
    title: 'chdir to a file fails with ENOTDIR',
    run(context) {
      assertRefused(context.provider(), context.file('plain.txt'), 'ENOTDIR');
    },
  },
  {
    title: 'chdir to a path over PATH_MAX fails with ENAMETOOLONG',
    run(context) {
      const provider = context.provider();
      assertRefused(provider, `${context.scratch}/${'x/'.repeat(2100)}`, 'ENAMETOOLONG');
      assertRefused(provider, `${context.scratch}/${'y'.repeat(300)}`, 'ENAMETOOLONG');
    },
  },
  {
    title: EACCES_TITLE,
    run(context) {
      if (process.platform === 'win32') throw new CheckSkipped('POSIX permissions only');
      const locked = context.dir('locked');
      fs.chmodSync(locked, 0o000);
      try {
        if (!isPrivileged(locked)) return assertRefused(context.provider(), locked, 'EACCES');
        if (process.env[CHILD_ENV]) throw new CheckSkipped('still privileged after dropping capabilities');
        runUnprivileged(context, EACCES_TITLE);
      } finally {
        fs.chmodSync(locked, 0o700);
      }
    },
  },
  {
    title: 'a deleted cwd gives the old path or ENOENT, and ENOENT after invalidate()',
    run(context) {
      const provider = context.provider();
      const doomed = context.dir('doomed');
      provider.chdir(doomed);
      provider.cwd();
      fs.rmdirSync(doomed);
      const answer = () => {
        try {
          return provider.cwd();
        } catch (error) {
          assert.equal((error as NodeJS.ErrnoException).code, 'ENOENT', 'a deleted cwd fails with ENOENT');
          return 'ENOENT';
        }
      };
      assert.ok(['ENOENT', doomed].includes(answer()), 'neither the old path nor ENOENT');
      provider.invalidate();
      const after = answer();
      if (after === 'ENOENT') return;
      // Only a strategy that hands out the runtime's own cached answer (naive on Node and Bun) may keep the old path.
      assert.equal(after, doomed, 'neither the old path nor ENOENT after invalidate()');
      let runtimeAnswer: string;
      try {
        runtimeAnswer = runtimeCwd();
      } catch {
        runtimeAnswer = 'ENOENT';
      }
      assert.equal(runtimeAnswer, doomed, 'after invalidate() the OS must be asked, and the OS says ENOENT');
    },
  },
  {
    title: 'invalidate() reveals a chdir made behind the provider',
    run(context) {
      const provider = context.provider();
      provider.cwd();
      const target = context.dir('behind');
      osChdir(target);
      provider.invalidate();
      assert.equal(provider.cwd(), target);
    },
  },
  {
    title: 'a chdir behind the provider is seen by the next cwd()',
    skip: (capabilities) =>
      capabilities.externalChange === 'immediate' ? undefined : `externalChange is '${capabilities.externalChange}'`,
    run(context) {
      const provider = context.provider();
      for (const name of ['one', 'two', 'three']) {
        const target = context.dir(name);
        provider.cwd();
        osChdir(target);
        assert.equal(provider.cwd(), target);
      }
    },
  },
  {
    title: 'a chdir behind the provider is seen within boundedMs',
    skip: (capabilities) =>
      capabilities.externalChange === 'bounded' ? undefined : `externalChange is '${capabilities.externalChange}'`,
    run(context) {
      const provider = context.provider();
      const bound = provider.capabilities.boundedMs;
      assert.ok(typeof bound === 'number' && bound > 0, "externalChange 'bounded' needs a positive boundedMs");
      // Scheduling slack on a loaded machine; a strategy that never notices still fails.
      const slack = 250;
      for (const name of ['one', 'two']) {
        const target = context.dir(name);
        provider.cwd();
        osChdir(target);
        const started = performance.now();
        while (provider.cwd() !== target) {
          assert.ok(performance.now() - started < bound + slack, `not seen within ${bound} ms (+${slack} ms slack)`);
          sleep(1);
        }
      }
    },
  },
  {
    title: 'close() twice is harmless, and a closed provider refuses with ERR_CWDKIT_CLOSED',
    run(context) {
      const [provider, other] = [context.provider(), context.provider()];
      provider.close();
      provider.close();
      assert.throws(() => provider.cwd(), { code: 'ERR_CWDKIT_CLOSED' });
      assert.throws(() => provider.chdir(context.scratch), { code: 'ERR_CWDKIT_CLOSED' });
      assert.equal(other.cwd(), readOsCwd(), 'closing one provider leaves the others working');
    },
  },
  {
    title: '[Symbol.dispose] closes the provider',
    run(context) {
      const provider = context.provider();
      provider[Symbol.dispose]();
      assert.throws(() => provider.cwd(), { code: 'ERR_CWDKIT_CLOSED' });
    },
  },
  {
    title: 'a worker sees a main-thread chdir',
    skip: workerCoherent,
    async run(context) {
      const provider = context.provider();
      const workers = [await context.worker(), await context.worker()];
      const dirs = [context.dir('w1'), context.dir('w2'), context.dir('w3')];
      for (let i = 0; i < 30; i++) {
        const target = dirs[i % dirs.length] as string;
        provider.chdir(target);
        for (const worker of workers) assert.equal(await worker.cwd(), target);
      }
    },
  },
  {
    title: 'chdir in a worker changes the process cwd',
    skip: (capabilities) => (capabilities.chdirFromWorker ? undefined : 'chdirFromWorker is false'),
    async run(context) {
      const provider = context.provider();
      const [worker, other] = [await context.worker(), await context.worker()];
      for (const name of ['from-worker-1', 'from-worker-2']) {
        const target = context.dir(name);
        await worker.chdir(target);
        assert.equal(readOsCwd(), target);
        assert.equal(await worker.cwd(), target);
        if (provider.capabilities.workerCoherent) {
          assert.equal(provider.cwd(), target, 'the main thread sees a worker chdir');
          assert.equal(await other.cwd(), target, 'another worker sees a worker chdir');
        }
      }
    },
  },
  {
    title: "chdir in a worker fails with the runtime's own error and changes nothing",
    skip: (capabilities) => (capabilities.chdirFromWorker ? 'chdirFromWorker is true' : undefined),
    async run(context) {
      const provider = context.provider();
      const before = provider.cwd();
      const worker = await context.worker();
      await assert.rejects(worker.chdir(context.dir('refused')), (error: { code?: unknown }) => {
        assert.equal(typeof error.code, 'string', 'the refusal has a code');
        return true;
      });
      assert.equal(readOsCwd(), before);
      assert.equal(provider.cwd(), before);
    },
  },
  {
    title: 'no stale reads while workers read under a storm of chdirs',
    skip: workerCoherent,
    async run(context) {
      // Tight, then with a pause before each chdir: in a tight storm a stale cache is replaced within microseconds and
      // rarely caught; paused, each published state lasts long enough for a reader to catch it (bump-before-chdir).
      for (const [storm, chdirs, pauseUs] of [
        ['tight', 2_000, 0],
        ['paused 20 µs', 1_000, 20],
      ] as const) {
        const result = await measureStaleReads({
          module: context.module,
          options: context.options,
          workers: 2,
          chdirs,
          directories: 16,
          pauseUs,
        });
        assert.ok(result.checked > 0, `${storm} storm: the readers made no checked read`);
        const found = `${storm} storm: ${result.stale} stale of ${result.checked} checked reads`;
        assert.equal(result.stale, 0, `${found}: ${JSON.stringify(result.examples)}`);
      }
    },
  },
  {
    title: 'random sequences of chdir, cwd, invalidate and resolve match the OS',
    run(context) {
      const dirs = ['r1', 'r2', 'r1/inner', 'r2/ä ö'].map((name) => context.dir(...name.split('/')));
      context.file('r1/file');
      const targets = fc.constantFrom(
        ...dirs,
        'inner',
        '..',
        '.',
        'missing',
        'file',
        '',
        path.join(context.scratch, 'r1'),
      );
      const step = fc.oneof(
        targets.map((target) => ({ op: 'chdir' as const, target })),
        fc.constant({ op: 'cwd' as const }),
        fc.constant({ op: 'invalidate' as const }),
        fc.constant({ op: 'other provider' as const }),
        fc.array(fc.constantFrom('a', '..', '.', '', 'b/c', '/abs', 'x/'), { maxLength: 3 }).map((segments) => ({
          op: 'resolve' as const,
          segments,
        })),
      );
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
          const [provider, other] = [
            context.strategy.create(context.options),
            context.strategy.create(context.options),
          ];
          try {
            provider.chdir(context.scratch);
            for (const step of steps) {
              const truth = readOsCwd();
              if (step.op === 'chdir') {
                try {
                  provider.chdir(step.target);
                } catch (error) {
                  assert.equal(typeof (error as { code?: unknown }).code, 'string');
                  assert.equal(readOsCwd(), truth, 'a failed chdir moved the OS cwd');
                }
                assert.equal(provider.cwd(), readOsCwd());
              } else if (step.op === 'cwd') {
                assert.equal(provider.cwd(), truth);
              } else if (step.op === 'invalidate') {
                provider.invalidate();
                assert.equal(provider.cwd(), truth);
              } else if (step.op === 'other provider') {
                assert.equal(other.cwd(), truth);
              } else {
                assert.equal(provider.resolve(...step.segments), path.resolve(truth, ...step.segments));
              }
            }
          } finally {
            provider.chdir(context.scratch);
            provider.close();
            other.close();
          }
        }),
        { numRuns: 150 },
      );
    },
  },
];
