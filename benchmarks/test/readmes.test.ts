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
