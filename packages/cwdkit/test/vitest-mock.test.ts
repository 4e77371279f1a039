// A real vitest run of a suite that fakes process.cwd (vi.spyOn and mockRestore(), an assignment, a wrapper), with
// no flag and under NODE_OPTIONS with each strategy: every test passes in each (#29.1). The suite is
// fixtures/vitest-mock/fakes.mjs; its first test checks that the strategy asked for is installed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dist, fixtures, packageRoot, run, scratchDir } from './helpers.js';

const vitest = path.join(packageRoot, '../../node_modules/.bin/vitest');
const project = path.join(fixtures, 'vitest-mock');
const target = scratchDir('cwdkit-vitest-mock-');
afterAll(() => fs.rmSync(target, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('a vitest suite that fakes process.cwd', () => {
  it.each(['', 'naive', 'main-thread-cache', 'sab-atomics', 'mutex', 'native', 'thread-cwd'])(
    'passes whole under the flag with %j',
    async (strategy) => {
      const report = path.join(target, `report-${strategy || 'bare'}.json`);
      const result = await run(vitest, ['run', '--root', project, '--reporter=json', `--outputFile=${report}`], {
        cwd: project,
        env: {
          CWDKIT_STRATEGY: strategy,
          CWDKIT_FIXTURE_TARGET: target,
          NODE_OPTIONS: strategy ? `--import=${path.join(dist, 'register.mjs')}` : '',
        },
      });
      const { numPassedTests, numFailedTests, testResults } = fs.existsSync(report)
        ? JSON.parse(fs.readFileSync(report, 'utf8'))
        : { numPassedTests: 0, numFailedTests: 0, testResults: [] };
      const failures = testResults.flatMap(
        (file: { assertionResults: { status: string; failureMessages: string[] }[] }) =>
          file.assertionResults.filter((test) => test.status !== 'passed').map((test) => test.failureMessages[0]),
      );
      // vitest's own output beside the counts when the run failed as a whole (a file that did not load).
      const output = result.code === 0 ? '' : `${result.stdout}\n${result.stderr}`.slice(-3000);
      expect({ code: result.code, numPassedTests, numFailedTests, failures, output }).toEqual({
        code: 0,
        output: '',
        numPassedTests: 5,
        numFailedTests: 0,
        failures: [],
      });
    },
  );
});
