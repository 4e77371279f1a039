import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { describe, expect, it } from 'vitest';
import { distEsm } from './support.js';

// A thread that finds no shared generation (a worker started before the package loaded on the main thread) asks the
// OS on every call; CWDKIT_NATIVE_SHARED=0 gives every thread that path, under the whole conformance suite.
const env = { ...process.env, CWDKIT_NATIVE_SHARED: '0', NO_COLOR: '1' };
const cli = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@cwdkit/conformance/package.json')),
  'dist',
  'cli.js',
);

describe('without the shared generation (every cwd() asks the OS)', () => {
  it('is what CWDKIT_NATIVE_SHARED=0 gives', () => {
    const script = `import(${JSON.stringify(distEsm)}).then((m) => console.log(m.sharesGeneration))`;
    const child = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8' });
    expect(child.stdout.trim(), child.stderr).toBe('false');
  });

  it.each(['cached', 'watch'])('mode %s passes the conformance suite', (mode) => {
    const options = JSON.stringify({ mode });
    const child = spawnSync(process.execPath, [cli, '@cwdkit/native', '--options', options], { env, encoding: 'utf8' });
    const output = `${child.stdout}${child.stderr}`;
    expect(output, output).toMatch(/^[1-9]\d* passed, 0 failed, \d+ skipped$/m); // a run where nothing passed is no pass
    expect(child.status, output).toBe(0);
  });
});
