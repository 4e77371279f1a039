// @cwdkit/native/kernel: a thread's own fs_struct (unshare(CLONE_FS)) and a real fchdir(2) on it, in a fresh process
// each time (the pool and the fs_structs are process state), and where seccomp refuses unshare(2).
import fs from 'node:fs';
import path from 'node:path';
import { kernel } from '@cwdkit/native/kernel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noUnshare } from './no-unshare.js';
import { fixture, packageRoot, removeTree, run, scratch } from './support.js';

const addon = path.join(packageRoot, 'build', 'Release', 'cwdkit.node');
let root: string;
/** Where unshare(2) is refused here (a container's seccomp profile), the scenario that needs it is skipped, visibly. */
const allowed = ((calls) => !(calls instanceof Error) && calls.probeUnshare() === 0)(kernel());

beforeEach(() => {
  root = scratch();
  fs.mkdirSync(path.join(root, 'home'));
  fs.writeFileSync(path.join(root, 'home', 'mine'), '');
  fs.mkdirSync(path.join(root, 'other'));
  fs.writeFileSync(path.join(root, 'other', 'theirs'), '');
});
afterEach(() => removeTree(root));

async function scenario(prefix: string[] = []) {
  const command = [...prefix, process.execPath, fixture('kernel.cjs'), addon, path.join(root, 'other')];
  const ended = await run(['sh', '-c', `cd "${path.join(root, 'home')}" && exec "$@"`, 'sh', ...command], 60_000);
  expect(ended.stderr).toBe('');
  return JSON.parse(ended.stdout);
}

describe.runIf(process.platform === 'linux')('kernel()', () => {
  it('loads the calls from the addon', () => {
    const calls = kernel();
    expect(calls).not.toBeInstanceOf(Error);
    expect(Object.keys(calls).sort()).toEqual(['fchdir', 'probeUnshare', 'routeThreadStarts', 'umask', 'unshareFs']);
  });

  // The loader takes build/Release/cwdkit.node without node-gyp-build (a worker's first chdir under thread-cwd), but
  // node-gyp-build's PREBUILDS_ONLY still means a prebuild or nothing (this checkout has none).
  it.skipIf(fs.existsSync(path.join(packageRoot, 'prebuilds')))(
    'under PREBUILDS_ONLY the addon compiled at install is not taken: ERR_CWDKIT_NATIVE_UNAVAILABLE',
    async () => {
      const probe =
        "const k = require('@cwdkit/native/kernel').kernel(); console.log(k instanceof Error ? k.code : 'loaded')";
      for (const [extra, expected] of [
        [{}, 'loaded'],
        [{ PREBUILDS_ONLY: '1' }, 'ERR_CWDKIT_NATIVE_UNAVAILABLE'],
      ] as const) {
        const ended = await run([process.execPath, '-e', probe], 60_000, { ...process.env, ...extra });
        expect(ended.stdout.trim(), ended.stderr).toBe(expected);
      }
    },
  );

  it("fchdir refuses what is not a number, and answers the OS's errno", () => {
    const calls = kernel();
    if (calls instanceof Error) throw calls;
    expect(() => (calls.fchdir as (fd: unknown) => number)('3')).toThrow(TypeError);
    expect(calls.fchdir(-1)).toBe(9); // EBADF
  });

  it.runIf(allowed)(
    "a worker's own fs_struct: it moves alone, and the main thread's pool calls stay in the process cwd",
    async () => {
      const seen = await scenario();
      const other = fs.realpathSync(path.join(root, 'other'));
      const home = fs.realpathSync(path.join(root, 'home'));
      expect(seen.worker).toEqual({
        ...{ probe: 0, unshare: 0, fchdir: 0, getcwd: other, sync: true, promise: 'mine' },
        // A test addon's pool thread made by the worker: routed, in the process's directory (unrouted: ENOENT).
        ...{ routed: true, routedAgain: 0, pool: '' },
      });
      // The worker used the pool first: without the pool started before its unshare, these two were ENOENT.
      expect(seen.main).toEqual({ routed: 0, getcwd: home, cwd: home, sync: true, promise: true, callback: true });
      expect(seen.after).toEqual({ getcwd: other, sync: true });
    },
  );

  it('under a seccomp filter that refuses unshare(2) (as Docker does): EPERM from the probe and from unshareFs', async () => {
    const seen = await scenario([noUnshare()]);
    expect(seen.worker).toMatchObject({ probe: 1, unshare: 1, fchdir: 0 }); // EPERM
    // Without a copy of its own, the worker's fchdir moved the whole process: why thread-cwd keeps handles there.
    expect(seen.main.getcwd).toBe(fs.realpathSync(path.join(root, 'other')));
  });
});
