// scripts/readmes.mjs in a copy of the repository's layout: it writes the Measured sections from the newest recorded
// run, and --check fails on a README that says something else (CI runs --check on the real ones).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { afterAll, describe, expect, it } from 'vitest';

const benchmarks = path.resolve(import.meta.dirname, '..');
const results = path.join(benchmarks, 'results');
const newest = fs
  .readdirSync(results)
  .filter((name) => name.endsWith('.json') && !name.endsWith('.agreement.json'))
  .sort()
  .at(-1) as string;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-readmes-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
fs.mkdirSync(path.join(root, 'benchmarks/scripts'), { recursive: true });
fs.mkdirSync(path.join(root, 'benchmarks/results'));
fs.copyFileSync(path.join(benchmarks, 'scripts/readmes.mjs'), path.join(root, 'benchmarks/scripts/readmes.mjs'));
fs.copyFileSync(path.join(results, newest), path.join(root, 'benchmarks/results', newest));
const readme = path.join(root, 'README.md');

const readmes = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(root, 'benchmarks/scripts/readmes.mjs'), ...args], { encoding: 'utf8' });

describe('readmes.mjs', () => {
  it('--check fails on a section the run does not give, and names the README', () => {
    fs.writeFileSync(readme, '# app\n\n<!-- measured:start -->\n| node | 123456× |\n<!-- measured:end -->\n\nafter\n');
    const result = readmes('--check');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`README.md is not what benchmarks/results/${newest} gives`);
    expect(fs.readFileSync(readme, 'utf8')).toContain('123456×'); // --check writes nothing
  });

  it('writes the section from the run, keeps the rest, and then --check passes', () => {
    expect(readmes().status).toBe(0);
    const text = fs.readFileSync(readme, 'utf8');
    expect(text).not.toContain('123456×');
    expect(text.startsWith('# app\n\n<!-- measured:start -->\nRecorded ')).toBe(true);
    expect(text.endsWith('<!-- measured:end -->\n\nafter\n')).toBe(true);
    expect(text).toContain(`--json benchmarks/results/${newest}`);
    expect(readmes('--check').status).toBe(0);
  });

  it('refuses a README without the markers', () => {
    fs.writeFileSync(readme, '# app\n');
    const result = readmes('--check');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('has no <!-- measured:start -->');
  });
});

/** The README readmes.mjs writes from `run` as the newest recording (a results file of its own, removed after). */
function readmeFrom(run: unknown): string {
  fs.writeFileSync(path.join(root, 'benchmarks/results', '9999-12-31.json'), JSON.stringify(run));
  try {
    fs.writeFileSync(readme, '# app\n\n<!-- measured:start -->\n<!-- measured:end -->\n');
    expect(readmes().status).toBe(0);
    return fs.readFileSync(readme, 'utf8');
  } finally {
    fs.rmSync(path.join(root, 'benchmarks/results', '9999-12-31.json'));
  }
}

/** The README written from the newest run with its whole programs and goals left out (as runs before them were). */
function withoutWholePrograms(): string {
  const run = JSON.parse(fs.readFileSync(path.join(results, newest), 'utf8'));
  delete run.programs;
  delete run.goals;
  return readmeFrom(run);
}

describe('readmes.mjs: whole programs (startup, real-*)', () => {
  it('writes no start-up or real-program table for a run without them', () => {
    const text = withoutWholePrograms();
    expect(text).not.toContain('Start-up of an empty script');
    expect(text).not.toContain('Real programs with and without the flag');
  });

  it('writes them, flag ÷ bare with its interval and the target met or not, when the run has them', () => {
    const run = JSON.parse(fs.readFileSync(path.join(results, newest), 'utf8'));
    const runtime = run.options.runtimes[0];
    const interval = (estimate: number, low: number, high: number) => ({ estimate, low, high, n: 4 });
    // The rows below stand in for the run's own: a recording that has these scenarios keeps none of its rows for them.
    const standIns = new Set(['startup', 'real-eslint']);
    run.scenarios = run.scenarios.filter((scenario: { name: string }) => !standIns.has(scenario.name));
    run.summary = run.summary.filter((row: { scenario: string }) => !standIns.has(row.scenario));
    run.scenarios.push(
      { name: 'startup', description: '', claim: '', target: { extraMs: 2, extraMiB: 2 } },
      { name: 'real-eslint', description: '', claim: '', slow: true },
    );
    run.summary.push({
      runtime,
      scenario: 'real-eslint',
      key: 'baseline',
      label: 'eslint, 50 files',
      role: 'baseline',
      n: 4,
      p50: 1,
      min: 1,
      p99: 1,
      processes: { runs: 12 },
    });
    // As cwdkit-bench writes them (report.ts programVerdicts): flag ÷ bare, what it adds, the verdict.
    run.programs = [
      {
        runtime,
        scenario: 'startup',
        strategy: 'native',
        key: 'provider',
        label: 'cwdkit/register, cwdkit.config.json names it',
        ratio: interval(2, 1.6, 2.5),
        extraNs: 12.5e6,
        extraRssBytes: 9 * 2 ** 20,
        verdict: 'not met',
      },
      {
        runtime,
        scenario: 'startup',
        strategy: 'native',
        key: 'no-config',
        label: 'cwdkit/register, no config file (the default list picks it)',
        ratio: interval(1.01, 0.91, 1.11),
        extraNs: 1.5e6,
        extraRssBytes: 2 ** 20,
        verdict: 'met',
      },
      {
        runtime,
        scenario: 'real-eslint',
        strategy: 'sab-atomics',
        key: 'provider',
        label: 'eslint, 50 files, cwdkit/register',
        ratio: interval(1.25, 1.11, 2),
        extraNs: 20e6,
        verdict: 'slower',
      },
    ];
    const text = readmeFrom(run);
    expect(text).toContain('Target (#21): ≤ 2 ms and ≤ 2 MiB.');
    expect(text).toMatch(/^\| native \| [^|]+ \| 2\.00× \(1\.60–2\.50\) \| \+12\.5 ms \| \+9\.00 MiB \| not met \|$/m);
    expect(text).toMatch(
      /^\| native \(no config file\) \| [^|]+ \| 1\.01× \(0\.91–1\.11\), no difference \| \+1\.50 ms \| \+1\.00 MiB \| met \|$/m,
    );
    expect(text).toMatch(/^\| eslint, 50 files \| sab-atomics \| 1\.25× \(1\.11–2\.00\) \|/m);
  });
});

describe('readmes.mjs: thread-cwd and the vitest example (#22 item 7)', () => {
  it('writes no thread-cwd or vitest table for a run without them', () => {
    const text = withoutWholePrograms();
    expect(text).not.toContain("thread-cwd in a worker that chdir'd");
    expect(text).not.toContain('The example project');
  });

  it('writes the goals with their verdicts, the comparisons without one, and threads ÷ forks', () => {
    const run = JSON.parse(fs.readFileSync(path.join(results, newest), 'utf8'));
    const runtime = run.options.runtimes[0];
    const interval = (estimate: number, low: number, high: number) => ({ estimate, low, high, n: 10 });
    const goal = { runtime, scenario: 'thread-cwd-worker', strategy: 'thread-cwd' };
    // As cwdkit-bench writes them (report.ts goalVerdicts, programVerdicts).
    run.goals = [
      {
        ...goal,
        key: 'process-cwd',
        label: 'process.cwd() installed, chdir’d',
        against: 'mutable-cache',
        atMost: 1.5,
        ratio: interval(3.2, 3.1, 3.3),
        verdict: 'not met',
      },
      {
        ...goal,
        key: 'process-cwd',
        label: 'process.cwd() installed, chdir’d',
        against: 'sab-atomics-process-cwd',
        ratio: interval(1.02, 0.98, 1.06),
        verdict: 'no goal',
      },
    ];
    run.programs = [
      {
        runtime,
        scenario: 'vitest-threads',
        strategy: 'thread-cwd',
        key: 'provider',
        label: "vitest run, pool 'threads' + thread-cwd",
        ratio: interval(1.3, 1.2, 1.4),
        extraNs: 300e6,
        verdict: 'slower',
      },
    ];
    const text = readmeFrom(run);
    expect(text).toMatch(
      /^\| [^|]+ \| process\.cwd\(\) installed, chdir’d \| a mutable cache \(h\.v \?\? miss\(\)\), called directly \| 3\.20× \(3\.10–3\.30\) \| ≤ 1\.5×, not met \|$/m,
    );
    expect(text).toMatch(
      /^\| [^|]+ \| process\.cwd\(\) installed, chdir’d \| process\.cwd\(\) in a worker with sab-atomics installed \| 1\.02× \(0\.98–1\.06\) \| – \|$/m,
    );
    expect(text).toMatch(/^\| [^|]+ \| 1\.30× \(1\.20–1\.40\) \| \+300 ms \|$/m);
  });
});
