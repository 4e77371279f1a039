import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { describe, expect, it } from 'vitest';
import { copyPackage, fixture, removeTree, run, scratch } from './support.js';

const canSwitchUser = process.platform === 'linux' && process.getuid?.() === 0;

// RLIMIT_NPROC binds every user but root, so the child runs as nobody (setpriv) on a world-readable copy.
describe.skipIf(!canSwitchUser)('when the OS refuses a thread (RLIMIT_NPROC)', () => {
  it('a watch provider throws ERR_CWDKIT_WATCH_THREAD, and the process goes on (no abort)', async () => {
    const root = scratch();
    try {
      const entry = copyPackage(root);
      const script = path.join(root, 'thread-limit.mjs');
      fs.copyFileSync(fixture('thread-limit.mjs'), script);
      execFileSync('chmod', ['-R', 'a+rX', root]);
      const nobody = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
      const ended = await run([...nobody, process.execPath, script, entry], 60_000);
      expect(ended, ended.stderr).toMatchObject({ status: 0, signal: null });
      const result = JSON.parse(ended.stdout);
      expect(result.code).toBe('ERR_CWDKIT_WATCH_THREAD');
      expect(result.message).toMatch(/could not start the watch thread \(EAGAIN\)/);
    } finally {
      removeTree(root);
    }
  }, 90_000);
});
