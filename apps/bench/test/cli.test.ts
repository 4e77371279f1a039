import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRuntime } from '../src/runtimes.js';
import { exit as exitOf } from './exit.js';

const cli = path.resolve(import.meta.dirname, '../dist/cli.js');
const exit = (args: string[]) => exitOf(cli, args);

describe('the CLI', () => {
  it('exits with 2 and names the valid values on a bad command line', async () => {
    const unknown = await exit(['--strategy', 'fastest']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--strategy: unknown "fastest"; valid: main-thread-cache, mutex, naive, native');
    const rounds = await exit(['--rounds', 'many']);
    expect(rounds.code).toBe(2);
    expect(rounds.stderr).toContain('--rounds must be a whole number');
  });

  it('--list shows every strategy, installed or with the reason, and every scenario', async () => {
    const { code, stdout } = await exit(['--list']);
    expect(code).toBe(0);
    for (const name of ['naive', 'main-thread-cache', 'sab-atomics', 'mutex', 'native']) {
      expect(stdout).toMatch(
        new RegExp(`^  ${name} +(workerCoherent=|not installed|not built|fails|create|its default)`, 'm'),
      );
    }
    for (const name of ['cwd-hot', 'chdir-cwd', 'resolve', 'worker-read', 'read-file-permission', 'napi-call']) {
      expect(stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
  });
});

describe('resolveRuntime', () => {
  it("finds Bun and Deno in their npm packages, and runs Deno with every permission and Node's collector", () => {
    const bun = resolveRuntime('bun');
    expect(fs.existsSync(bun.command)).toBe(true);
    expect(bun.command).toContain(`${path.sep}bun${path.sep}`);
    expect(bun.version).toMatch(/^1\.\d+\.\d+/);
    const deno = resolveRuntime('deno');
    expect(deno.args).toEqual(['run', '-A', '--v8-flags=--expose-gc,--allow-natives-syntax,--max-semi-space-size=1']);
    expect(deno.version).toMatch(/^2\.\d+\.\d+/);
    expect(resolveRuntime('node')).toMatchObject({ command: process.execPath, version: process.versions.node });
  });
});

describe('discoverStrategy', () => {
  it('reports a strategy whose package is missing as not installed, with what to do', async () => {
    const { discoverStrategy } = await import('../src/strategies.js');
    const missing = await discoverStrategy('no-such-strategy' as never);
    expect(missing).toEqual({
      name: 'no-such-strategy',
      installed: false,
      reason: 'not installed (npm install @cwdkit/no-such-strategy)',
    });
  });

  it('loads an installed one, with its capabilities', async () => {
    const { discoverStrategy } = await import('../src/strategies.js');
    const naive = await discoverStrategy('naive');
    expect(naive.installed).toBe(true);
    expect(naive.capabilities).toMatchObject({
      workerCoherent: expect.any(Boolean),
      chdirFromWorker: expect.any(Boolean),
    });
  });
});
