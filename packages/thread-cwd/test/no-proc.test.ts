// Without /proc mounted (a container or a mount namespace that hides it) a thread's cwd cannot be reached by its
// handle: install() in a worker refuses with ERR_CWDKIT_UNSUPPORTED_RUNTIME, as on other systems, instead of covering
// fs with paths that fail (a worker's chdir into an existing folder said ENOENT). The mount namespace is real:
// unshare(1) with a tmpfs over /proc, which needs root; the test says so and fails where it cannot make one.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { findRuntime } from '@cwdkit/conformance';
import { expect, it } from 'vitest';

const dist = path.join(import.meta.dirname, '..', 'dist', 'index.cjs');
const cwdkit = path.join(import.meta.dirname, '..', '..', 'cwdkit', 'dist', 'index.cjs');
const node = findRuntime('node24') ?? process.execPath;
const app = `const { Worker } = require('node:worker_threads');
new Worker(\`const { install, installed } = require(${JSON.stringify(cwdkit)});
const { createProvider } = require(${JSON.stringify(dist)});
const before = String(process.cwd) + process.cwd();
try { install(createProvider()); console.log('installed'); }
catch (error) { console.log(error.code, error.message, installed() ?? 'nothing', String(process.cwd) + process.cwd() === before); }\`, { eval: true });`;

const inNamespace = (proc: 'hidden' | 'mounted') =>
  spawnSync(
    'unshare',
    ['-m', 'sh', '-c', `${proc === 'hidden' ? 'mount -t tmpfs none /proc && ' : ''}exec "$0" -e "$1"`, node, app],
    { encoding: 'utf8' },
  );

it('a worker refuses to install without /proc/self/fd, and changes nothing', () => {
  const mounted = inNamespace('mounted');
  expect(mounted.stderr, 'unshare -m needs root here').toBe('');
  expect(mounted.stdout).toBe('installed\n');
  const hidden = inNamespace('hidden');
  expect(hidden.stderr).toBe('');
  expect(hidden.stdout).toBe(
    'ERR_CWDKIT_UNSUPPORTED_RUNTIME install(): thread-cwd cannot give this worker a cwd of its own: a per-thread cwd ' +
      'needs /proc/self/fd, and /proc is not mounted here nothing true\n',
  );
});
