// The repository's check of the example: each vitest config runs in a child vitest of its own, on this Node, and every
// test file's outcome (with its errors' codes) is compared with what that config must give.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import type { FileResult } from './reporter.js';

const app = path.join(import.meta.dirname, '..');
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-example-check-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const files = fs.readdirSync(path.join(app, 'test')).filter((name) => name.endsWith('.test.ts'));

/** Runs the example with `config`; returns its exit code, its output and one result per test file. */
async function run(config: string): Promise<{ code: number; output: string; results: FileResult[] }> {
  const resultsFile = path.join(scratch, `${path.basename(config)}.json`);
  // The child is a vitest of its own, not a worker of this one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  const args = [vitest, 'run', '--config', config, '--reporter=default', '--reporter=./check/reporter.ts'];
  const child = await promisify(execFile)(process.execPath, args, {
    cwd: app,
    env: { ...env, CWDKIT_EXAMPLE_RESULTS: resultsFile, FORCE_COLOR: '0' },
    timeout: 150_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error) => ({
      code: typeof error.code === 'number' ? error.code : -1,
      output: `${error.stdout}${error.stderr}${error}`,
    }),
  );
  const results = fs.existsSync(resultsFile) ? (JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as FileResult[]) : [];
  return { ...child, results };
}

/** Each file's state and the codes of its errors, file errors first (a failing setup file), then its tests'. */
const outcomes = (results: FileResult[]) =>
  Object.fromEntries(
    results.map((file) => [
      file.file,
      { state: file.state, codes: [...file.errors, ...file.tests.flatMap((t) => t.errors)].map((e) => e.code) },
    ]),
  );
const every = (outcome: { state: string; codes: unknown[] }, names = files) =>
  Object.fromEntries(names.map((name) => [name, outcome]));

test.runIf(process.platform === 'linux')('pool threads with the setup line: every file passes', async () => {
  const { code, output, results } = await run('vitest.config.ts');
  expect(outcomes(results), output).toEqual(every({ state: 'passed', codes: [] }));
  expect(code, output).toBe(0);
});

test.skipIf(process.platform === 'linux')(
  'pool threads with the setup line, where thread-cwd cannot cover a worker: every file stops with its refusal',
  async () => {
    const { code, output, results } = await run('vitest.config.ts');
    expect(outcomes(results), output).toEqual(every({ state: 'failed', codes: ['ERR_CWDKIT_UNSUPPORTED_RUNTIME'] }));
    expect(code, output).toBe(1);
  },
);

test('pool threads without the setup line: every file fails with ERR_WORKER_UNSUPPORTED_OPERATION', async () => {
  const { code, output, results } = await run('vitest.no-setup.config.ts');
  expect(outcomes(results), output).toEqual(every({ state: 'failed', codes: ['ERR_WORKER_UNSUPPORTED_OPERATION'] }));
  expect(code, output).toBe(1);
});

test('pool forks, no setup: the same tests pass with a real process.chdir', async () => {
  const { code, output, results } = await run('vitest.forks.config.ts');
  expect(outcomes(results), output).toEqual(every({ state: 'passed', codes: [] }));
  expect(code, output).toBe(0);
});

test('a process.cwd()-only fake (mock-cwd, vi.spyOn) is caught: the first relative read misses, ENOENT', async () => {
  const { code, output, results } = await run('check/vitest.fake-cwd.config.ts');
  expect(outcomes(results), output).toEqual(every({ state: 'failed', codes: ['ENOENT'] }));
  expect(code, output).toBe(1);
});

test('isolate: false, one worker for two files: the setup line runs twice there without installing twice', async () => {
  const { code, output, results } = await run('check/vitest.no-isolate.config.ts');
  expect(outcomes(results), output).toEqual(every({ state: 'passed', codes: [] }, ['one.test.ts', 'two.test.ts']));
  expect(code, output).toBe(0);
});

test("the README's example is these files, as they are", () => {
  const readme = fs.readFileSync(path.join(app, 'README.md'), 'utf8');
  for (const file of ['vitest.config.ts', 'setup.ts', 'test/example.test.ts']) {
    expect(readme, file).toContain(`\`\`\`ts\n// ${file}\n${fs.readFileSync(path.join(app, file), 'utf8')}\`\`\``);
  }
});
