// One flag to adopt cwdkit: a real app in a fresh project (cwdkit, core and the real @cwdkit/sab-atomics copied into
// its node_modules), run with `node --import`, `NODE_OPTIONS`, `bun --preload` and `deno run --preload`; it starts a
// real worker. The app itself never imports the strategy: its main thread only orchestrates.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, packageRoot, run, scratchDir, writeFile } from './helpers.js';

const bin = path.join(packageRoot, '../../node_modules/.bin');
let project: string;

beforeAll(() => {
  project = scratchDir('cwdkit-register-');
  copyPackage(project);
  const strategy = path.join(packageRoot, '../sab-atomics');
  for (const part of ['dist', 'package.json']) {
    fs.cpSync(path.join(strategy, part), path.join(project, 'node_modules/@cwdkit/sab-atomics', part), {
      recursive: true,
    });
  }
  // Deno resolves npm: specifiers only for the dependencies package.json lists.
  writeFile(path.join(project, 'package.json'), {
    name: 'app',
    private: true,
    type: 'module',
    dependencies: { cwdkit: '0.0.0', '@cwdkit/sab-atomics': '0.0.0' },
    cwdkit: { strategy: 'sab-atomics' },
  });
  fs.mkdirSync(path.join(project, 'sub'));
  writeFile(
    path.join(project, 'app.js'),
    `import path from 'node:path';
import { getEnvironmentData, isMainThread, parentPort, Worker } from 'node:worker_threads';
import { installed } from 'cwdkit';

function report() {
  return {
    installed: installed() ?? null,
    cwd: process.cwd(),
    resolve: path.resolve('x'),
    // What register published on the main thread, for workers the strategy never saw start.
    sharedMemory: getEnvironmentData('cwdkit:sab-atomics.v1') instanceof SharedArrayBuffer,
  };
}
if (isMainThread) {
  const before = report();
  process.chdir('sub');
  const after = report();
  const worker = new Worker(new URL(import.meta.url));
  worker.once('message', (inWorker) => {
    console.log(JSON.stringify({ before, after, worker: inWorker }));
    process.chdir('..');
  });
  worker.once('error', (error) => console.log(JSON.stringify({ error: error.message })));
} else {
  parentPort.postMessage(report());
}
`,
  );
});
afterAll(() => {
  fs.rmSync(project, { recursive: true, force: true });
});

describe('cwdkit/register', () => {
  const sub = () => path.join(project, 'sub');
  const main = (installed: string | null) => ({
    before: { installed, cwd: project, resolve: path.join(project, 'x'), sharedMemory: true },
    after: { installed, cwd: sub(), resolve: path.join(sub(), 'x'), sharedMemory: true },
  });

  it.each([
    // Node passes --import on to workers (their default execArgv): the worker installs the strategy too.
    ['node --import', process.execPath, ['--import', 'cwdkit/register', 'app.js'], {}, 'sab-atomics'],
    ['NODE_OPTIONS', process.execPath, ['app.js'], { NODE_OPTIONS: '--import=cwdkit/register' }, 'sab-atomics'],
    // Bun and Deno do not run a preload in workers; the worker still finds the shared memory.
    ['bun --preload', path.join(bin, 'bun'), ['--preload', 'cwdkit/register', 'app.js'], {}, null],
    [
      'deno run --preload',
      path.join(bin, 'deno'),
      ['run', '--preload', 'npm:cwdkit/register', '--allow-read', '--allow-env', 'app.js'],
      {},
      null,
    ],
  ] as const)(
    '%s: the app sees the configured strategy, and its worker',
    async (_how, command, args, env, inWorker) => {
      const result = await run(command, [...args], { cwd: project, env });
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        ...main('sab-atomics'),
        worker: { installed: inWorker, cwd: sub(), resolve: path.join(sub(), 'x'), sharedMemory: true },
      });
    },
  );

  it('without the flag nothing is installed and no shared memory is published', async () => {
    const result = await run(process.execPath, ['app.js'], { cwd: project });
    expect(result.stderr).toBe('');
    const outcome = JSON.parse(result.stdout);
    expect(outcome.before).toMatchObject({ installed: null, sharedMemory: false });
    expect(outcome.worker).toMatchObject({ installed: null, sharedMemory: false });
  });

  it('a selection error stops the program before the app runs, with its code', async () => {
    const result = await run(process.execPath, ['--import', 'cwdkit/register', 'app.js'], {
      cwd: project,
      env: { CWDKIT_STRATEGY: 'Sab-Atomics' },
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('ERR_CWDKIT_UNKNOWN_STRATEGY');
    expect(result.stderr).toContain('did you mean "sab-atomics"?');
  });
});
