// The bench measures whatever strategy an installed package declares, not only the five this repository publishes:
// a project with the built bench and a fixture package `cwdkit-echo` (declaring "echo") in its node_modules.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/report.js';
import { exit as exitOf } from './exit.js';

const bench = path.resolve(import.meta.dirname, '..');
const project = fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-bench-discover-'));
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

const modules = path.join(project, 'node_modules');
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
write(path.join(project, 'package.json'), '{ "name": "a-project", "private": true }\n');
// The bench is copied (a link would be followed back to this repository, where it finds the five instead).
fs.cpSync(path.join(bench, 'dist'), path.join(modules, '@cwdkit/bench/dist'), { recursive: true });
fs.copyFileSync(path.join(bench, 'package.json'), path.join(modules, '@cwdkit/bench/package.json'));
// Its dependencies, from this repository (npm hoists them to the root's node_modules).
for (const name of ['@cwdkit/benchmarks', '@cwdkit/core', 'cwdkit']) {
  const target = fs.realpathSync(path.join(bench, '../../node_modules', name));
  fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
  fs.symlinkSync(target, path.join(modules, name), 'dir');
}
write(
  path.join(modules, 'cwdkit-echo/package.json'),
  `${JSON.stringify({ name: 'cwdkit-echo', type: 'module', exports: './index.js', cwdkit: { strategy: 'echo' } })}\n`,
);
const echo = `import { buildProvider, defineStrategy, osChdir, runtimeCwd } from '@cwdkit/core';
export default defineStrategy({
  specVersion: 1,
  name: 'echo',
  description: 'A fixture: the runtime cwd, declared by a package that is not one of the five.',
  create: () =>
    buildProvider({
      strategy: 'echo',
      capabilities: { workerCoherent: false, chdirFromWorker: false, externalChange: 'never' },
      cwd: runtimeCwd,
      chdir: osChdir,
      invalidate() {},
    }),
});
`;
write(path.join(modules, 'cwdkit-echo/index.js'), echo);
// The same strategy as a module of the project's own, not a package.
write(path.join(project, 'src/my-strategy.js'), echo.replace('declared by a package', 'in a module of the project'));
const cli = path.join(modules, '@cwdkit/bench/dist/cli.js');

// As `npm run bench` in that project would: relative paths on the command line are from INIT_CWD.
const exit = (args: string[]) => exitOf(cli, args, { cwd: project, env: { ...process.env, INIT_CWD: project } });

/** One quick round of `strategy` in `scenarios`: the report, after checking the run exited with 0. */
async function measure(strategy: string, scenarios: string): Promise<Report> {
  const json = path.join(fs.mkdtempSync(path.join(project, 'run-')), 'report.json');
  const args = ['--strategy', strategy, '--scenario', scenarios, '--quick', '--rounds', '1', '--json', json];
  const { code, stderr } = await exit(args);
  expect(code, stderr).toBe(0);
  return JSON.parse(fs.readFileSync(json, 'utf8')) as Report;
}

describe('a strategy declared by a package that is not one of the five', () => {
  it('is listed by --list, alone: the bench lists what is installed where it is', async () => {
    const { code, stdout } = await exit(['--list']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}echo +workerCoherent=false chdirFromWorker=false externalChange=never$/m);
    expect(stdout).toContain('declared by a package that is not one of the five');
    for (const name of ['naive', 'sab-atomics', 'native']) expect(stdout).not.toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('is the only valid --strategy there', async () => {
    const { code, stderr } = await exit(['--strategy', 'naive']);
    expect(code).toBe(2);
    expect(stderr).toContain('--strategy: unknown "naive"; valid: echo, all');
    expect((await exit(['--strategy', 'ecoh'])).stderr).toContain('"ecoh" (did you mean echo?)');
  });

  it('is measured by --strategy echo, on the main thread and in a worker that imports it by its URL', async () => {
    const report = await measure('echo', 'cwd-hot,worker-hot');
    expect(report.failures).toEqual([]);
    expect(report.jobs.map((job) => [job.scenario, job.strategy])).toEqual([
      ['cwd-hot', 'echo'],
      ['worker-hot', 'echo'],
    ]);
    for (const job of report.jobs) {
      expect(job.result?.rows.find((row) => row.key === 'provider')?.stats.p50).toBeGreaterThan(0);
    }
  });

  it('a module path given to --strategy is measured under that path, and a missing one is reported', async () => {
    const report = await measure('./src/my-strategy.js', 'cwd-hot');
    expect(report.strategies.find((s) => s.name === './src/my-strategy.js')).toMatchObject({
      installed: true,
      description: expect.stringContaining('in a module of the project'),
    });
    expect(report.jobs.map((job) => [job.strategy, job.error])).toEqual([['./src/my-strategy.js', undefined]]);
    const missing = await exit(['--strategy', './src/none.js', '--scenario', 'cwd-hot', '--quick', '--rounds', '1']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/skipping \.\/src\/none\.js: fails to load: .*none\.js/);
  });
});
