// What the README says of the flag with workers and of its error codes, checked against real runs: the bare
// `--import cwdkit/register` is resolved again in each new worker from the cwd of that moment, the URL that
// `npx cwdkit flag` prints is not; an eval worker runs no --import; a name gets the code the error table gives it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyPackage, packageRoot, run, scratchDir, writeFile } from './helpers.js';

const modules = path.join(packageRoot, '../../node_modules');
const nodes = [
  ['node24', path.join(modules, 'node24/bin/node')],
  ['node22', path.join(modules, 'node22/bin/node')],
] as const;
const readme = fs.readFileSync(path.join(packageRoot, 'README.md'), 'utf8');
/** The error table's row of `code`. */
const row = (code: string) => readme.split('\n').find((line) => line.startsWith(`| \`${code}\` |`)) ?? '';

function project(): string {
  const root = scratchDir('cwdkit-register-readme-');
  copyPackage(root);
  for (const part of ['dist', 'package.json']) {
    fs.cpSync(
      path.join(packageRoot, '../sab-atomics', part),
      path.join(root, 'node_modules/@cwdkit/sab-atomics', part),
      {
        recursive: true,
      },
    );
  }
  writeFile(path.join(root, 'package.json'), { name: 'app', private: true, type: 'module' });
  writeFile(path.join(root, 'cwdkit.config.json'), { strategy: 'sab-atomics' });
  return root;
}

describe('the README on cwdkit/register', () => {
  it.each(nodes)(
    '%s: after a chdir outside the project, workers and forks start under the URL form, not under the bare name',
    async (_name, node) => {
      const root = project();
      const outside = scratchDir('cwdkit-outside-');
      writeFile(
        path.join(root, 'app.mjs'),
        `import { fork } from 'node:child_process';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
const { installed } = await import(${JSON.stringify(path.join(root, 'node_modules/cwdkit/dist/index.js'))});
if (process.argv[2] === 'child') process.exit(installed() === 'sab-atomics' ? 0 : 3);
else if (isMainThread) {
  process.chdir(${JSON.stringify(outside)});
  const worker = new Worker(new URL(import.meta.url));
  const inWorker = await new Promise((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (error) => resolve(error.code));
  });
  const forked = await new Promise((resolve) => {
    fork(new URL(import.meta.url).pathname, ['child'], { stdio: 'ignore' }).once('exit', resolve);
  });
  console.log(JSON.stringify({ inWorker, forked }));
} else parentPort.postMessage(installed());
`,
      );
      const flag = await run(node, [path.join(root, 'node_modules/cwdkit/bin/cwdkit.js'), 'flag'], { cwd: root });
      expect(flag.stdout).toMatch(/^--import=file:\/\/\//);
      const [url, bare] = await Promise.all([
        run(node, [flag.stdout.trim(), 'app.mjs'], { cwd: root }),
        run(node, ['--import', 'cwdkit/register', 'app.mjs'], { cwd: root }),
      ]);
      expect(url.stderr).toBe('');
      expect(JSON.parse(url.stdout)).toEqual({ inWorker: 'sab-atomics', forked: 0 });
      expect(JSON.parse(bare.stdout)).toEqual({ inWorker: 'ERR_MODULE_NOT_FOUND', forked: 1 });
      // And the README says so, with the form that works.
      expect(readme).toContain('node "$(npx cwdkit flag)" app.js');
      expect(readme).toMatch(
        /every new `Worker` \(a\s+piscina task too\) and every `fork\(\)` fails with `ERR_MODULE_NOT_FOUND`/,
      );
    },
  );

  it.each(nodes)('%s: an eval worker runs no --import, as the README says', async (_name, node) => {
    const root = project();
    const index = path.join(root, 'node_modules/cwdkit/dist/index.cjs');
    writeFile(
      path.join(root, 'app.mjs'),
      `import { Worker } from 'node:worker_threads';
const code = "require('node:worker_threads').parentPort.postMessage(String(require(" + ${JSON.stringify(JSON.stringify(index))} + ").installed()))";
const worker = new Worker(code, { eval: true });
worker.once('message', (inEval) => console.log(JSON.stringify({ inEval })));
`,
    );
    const result = await run(node, ['--import', 'cwdkit/register', 'app.mjs'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ inEval: 'undefined' });
    expect(readme).toMatch(/A worker\s+with `eval: true` runs no `--import`/);
  });

  // Each name, through the flag: the code it stops with, and what the README's row of that code says of it.
  it.each([
    ['nope', 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED', 'a well-formed name that no installed package declares'],
    ['nativ', 'ERR_CWDKIT_UNKNOWN_STRATEGY', 'a near miss of a known one'],
    ['Sab_Atomics', 'ERR_CWDKIT_UNKNOWN_STRATEGY', 'a name that is not a strategy name'],
  ])('CWDKIT_STRATEGY=%s stops with %s, as the error table says', async (name, code, says) => {
    const result = await run(nodes[0][1], ['--import', 'cwdkit/register', '-e', '0'], {
      cwd: project(),
      env: { CWDKIT_STRATEGY: name },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`[${code}]`);
    expect(row(code)).toContain(says);
  });
});
