import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { type Report, SLOW_PAGE_FAULT_US } from '../src/report.js';

const run = promisify(execFile);
const cli = path.resolve(import.meta.dirname, '../dist/cli.js');
const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-bench-test-'));
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

// A real run of the built CLI, as small as it gets: one strategy, two scenarios, one round, one reader.
describe('a tiny real run', async () => {
  const json = path.join(directory, 'run.json');
  const html = path.join(directory, 'run.html');
  const args = [
    '--quick',
    '--rounds',
    '1',
    '--strategy',
    'naive',
    '--scenario',
    'cwd-hot,worker-read',
    '--workers',
    '1',
  ];
  const { stdout, stderr } = await run(process.execPath, [cli, ...args, '--json', json, '--html', html]).catch(
    (error) => {
      // Show what the CLI said: the report's failures are in its output.
      throw new Error(`cwdkit-bench failed: ${error.message}\n${error.stdout}\n${error.stderr}`);
    },
  );
  const report = JSON.parse(fs.readFileSync(json, 'utf8')) as Report;

  it('records the environment and the harness', () => {
    expect(report.schema).toBe(2);
    expect(report.harness).toEqual({ name: '@cwdkit/bench', version: expect.any(String) });
    expect(report.environment.cores).toBeGreaterThan(0);
    expect(report.environment.cpu).not.toBe('');
    expect(report.environment.runtimes).toEqual({ node: process.versions.node });
    // Where the measuring processes ran: resolve's speed-up depends on the cwd's length (the agreement check needs it).
    expect(report.environment.cwd).toEqual(expect.any(String));
    // The machine's state at the start and the end (#29 item 5: a slow VM moves every figure), said when slow.
    const faults = report.environment.pageFaultUs;
    expect(faults?.start).toBeGreaterThan(0);
    expect(faults?.end).toBeGreaterThan(0);
    expect(Number.isFinite(faults?.start) && Number.isFinite(faults?.end)).toBe(true);
    expect(stderr.includes('slow state')).toBe((faults?.start as number) > SLOW_PAGE_FAULT_US);
    expect(report.options).toMatchObject({ rounds: 1, quick: true, workers: 1, runtimes: ['node'] });
    expect(report.options.strategies).toEqual(['naive']);
  });

  it('lists every strategy an installed package declares, and the scenarios it ran', () => {
    const names = report.strategies.map((strategy) => strategy.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['naive', 'main-thread-cache', 'sab-atomics', 'mutex', 'native']));
    const naive = report.strategies.find((strategy) => strategy.name === 'naive');
    expect(naive?.installed).toBe(true);
    expect(naive?.capabilities?.externalChange).toMatch(/^(immediate|bounded|never)$/);
    expect(report.scenarios.map((scenario) => scenario.name)).toEqual(['cwd-hot', 'worker-read']);
  });

  it('keeps every round of every process, with the no-op, baseline and A/A control in each', () => {
    expect(report.jobs).toHaveLength(2);
    expect(report.failures).toEqual([]);
    for (const job of report.jobs) {
      expect(job).toMatchObject({ runtime: 'node', strategy: 'naive', round: 0, reverse: false });
      expect(job.result?.runtime).toEqual({ name: 'node', version: process.versions.node });
      expect(job.result?.timerResolutionNs).toBeGreaterThan(0);
      const roles = job.result?.rows.map((row) => row.role);
      expect(roles).toEqual(expect.arrayContaining(['noop', 'baseline', 'subject', 'control']));
      for (const row of job.result?.rows ?? []) {
        expect(row.stats.p50).toBeGreaterThan(0);
        expect(row.stats.min).toBeLessThanOrEqual(row.stats.p50);
        expect(row.stats.p99).toBeGreaterThanOrEqual(row.stats.p50);
      }
      expect(job.result?.checks.every((check) => check.ok)).toBe(true);
    }
  });

  it('summarizes: speed-ups over the baseline, the mutable-cache reference, stale reads', () => {
    const naive = (scenario: string) =>
      report.summary.find((row) => row.scenario === scenario && row.strategy === 'naive');
    expect(naive('cwd-hot')?.speedup?.n).toBe(1);
    expect(naive('cwd-hot')?.vsReference?.estimate).toBeGreaterThan(0);
    const stale = naive('worker-read')?.stale;
    expect(stale?.reads).toBeGreaterThan(0);
    expect(stale?.stale).toBeLessThanOrEqual(stale?.reads ?? 0);
    const runtimeRow = report.summary.find((row) => row.scenario === 'worker-read' && row.role === 'baseline');
    expect(runtimeRow?.stale?.reads).toBeGreaterThan(0);
  });

  it('prints the table and writes a self-contained HTML report', () => {
    expect(stdout).toMatch(/^cwd-hot on node /m);
    expect(stdout).toMatch(/^claim: Node's cwd cache PR/m);
    expect(stdout).toMatch(/^Summary: the fastest worker-coherent strategy/m);
    expect(stdout).toMatch(/speed-up \[95% CI\]/);
    expect(stdout).toMatch(/^naive\b/m);
    const page = fs.readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<svg');
    expect(page).toContain('id="summary"');
    expect(page).toContain('whiskers are clipped');
    expect(page).not.toMatch(/<script|<link|src="http/);
  });
});

// The probe must read fresh pages every time: memory handed back already touched reads ~1/500 of a fault. Collected
// between calls (vm gives this thread V8's gc), later calls read at least a twentieth of the first two's smaller: a
// pause of the machine only ever adds to a call, so the smaller of two holds even on a busy machine.
describe('pageFaultMicros()', () => {
  it('reads fresh pages on every call, after a collection too', async () => {
    const v8 = await import('node:v8');
    const vm = await import('node:vm');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const { pageFaultMicros } = await import('../src/report.js');
    const first = Math.min(pageFaultMicros(), pageFaultMicros());
    for (let i = 0; i < 3; i++) {
      gc();
      expect(pageFaultMicros()).toBeGreaterThan(first / 20);
    }
  });
});
