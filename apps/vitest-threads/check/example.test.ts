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
const linux = process.platform === 'linux';
const passes = { state: 'passed', codes: [] };
const fails = (code: string) => ({ state: 'failed', codes: [code] });

/** Each config, what every one of its files must give, and the test files it runs. */
const cases = [
  {
    config: 'vitest.config.ts',
    outcome: passes,
    when: linux,
    title: 'pool threads with the setup line: every file passes',
  },
  {
    config: 'vitest.config.ts',
    outcome: fails('ERR_CWDKIT_UNSUPPORTED_RUNTIME'),
    when: !linux,
    title:
      'pool threads with the setup line, where thread-cwd cannot cover a worker: every file stops with its refusal',
  },
  {
    config: 'vitest.no-setup.config.ts',
    outcome: fails('ERR_WORKER_UNSUPPORTED_OPERATION'),
    title: 'pool threads without the setup line: every file fails with ERR_WORKER_UNSUPPORTED_OPERATION',
  },
  {
    config: 'vitest.forks.config.ts',
    outcome: passes,
    title: 'pool forks, no setup: the same tests pass (a real chdir)',
  },
  {
    config: 'check/vitest.fake-cwd.config.ts',
    outcome: fails('ENOENT'),
    title: 'a process.cwd()-only fake (mock-cwd, vi.spyOn) is caught: the first relative read misses, ENOENT',
  },
  {
    config: 'check/vitest.no-isolate.config.ts',
    outcome: passes,
    names: ['one.test.ts', 'two.test.ts'],
    title: 'isolate: false, one worker for two files: the setup line runs twice there without installing twice',
  },
];

for (const { config, outcome, when = true, names = files, title } of cases) {
  test.runIf(when)(title, async () => {
    const { code, output, results } = await run(config);
    expect(outcomes(results), output).toEqual(Object.fromEntries(names.map((name) => [name, outcome])));
    expect(code, output).toBe(outcome.state === 'passed' ? 0 : 1);
  });
}

test("the README's example is these files, as they are", () => {
  const readme = fs.readFileSync(path.join(app, 'README.md'), 'utf8');
  for (const file of ['vitest.config.ts', 'test/example.test.ts']) {
    expect(readme, file).toContain(`\`\`\`ts\n// ${file}\n${fs.readFileSync(path.join(app, file), 'utf8')}\`\`\``);
  }
});
