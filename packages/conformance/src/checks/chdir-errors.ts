// Bad input: the right code, Node's error shape, and nothing moved.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { runtime } from '@cwdkit/core';
import type { CheckContext } from '../context.js';
import { assertRefused, type Check, CheckSkipped } from './support.js';

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

export const chdirErrorsChecks: readonly Check[] = [
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
];
