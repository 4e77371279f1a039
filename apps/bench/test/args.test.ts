import { describe, expect, it } from 'vitest';
import { DEFAULTS, parseBenchArgs, UsageError } from '../src/args.js';

const SCENARIOS = ['cwd-hot', 'chdir-cwd', 'resolve'];
/** As installed packages declare them: any name, not only the published five. */
const STRATEGIES = ['main-thread-cache', 'mutex', 'naive', 'native', 'ring-buffer', 'sab-atomics'];
const parse = (...argv: string[]) => parseBenchArgs(argv, { strategies: STRATEGIES, scenarios: SCENARIOS });
const withSlow = (argv: string[]) =>
  parseBenchArgs(argv, { strategies: STRATEGIES, scenarios: SCENARIOS, slow: ['resolve'] });

function usageError(argv: string[]): UsageError {
  try {
    parse(...argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
}

describe('parseBenchArgs', () => {
  it('has defaults: every strategy, every scenario, Node only', () => {
    const options = parse();
    expect(options).toMatchObject({
      strategies: 'all',
      scenarios: SCENARIOS,
      runtimes: ['node'],
      rounds: DEFAULTS.full.rounds,
      minCpuTimeMs: DEFAULTS.full.minCpuTimeMs,
      workers: DEFAULTS.workers,
      quick: false,
      list: false,
      help: false,
    });
    expect(options.json).toBeUndefined();
    expect(options.html).toBeUndefined();
  });

  it('--quick shortens the run, and --rounds still wins', () => {
    expect(parse('--quick')).toMatchObject({
      quick: true,
      rounds: DEFAULTS.quick.rounds,
      minCpuTimeMs: DEFAULTS.quick.minCpuTimeMs,
    });
    expect(parse('--quick', '--rounds', '7').rounds).toBe(7);
  });

  it('reads lists, with spaces, duplicates and both --flag value and --flag=value', () => {
    const options = parse(
      '--strategy',
      'naive, sab-atomics,naive',
      '--scenario=resolve,cwd-hot',
      '--runtime',
      'deno,node',
      '--rounds=3',
      '--workers',
      '4',
      '--json',
      'out/r.json',
      '--html=out/r.html',
    );
    expect(options).toMatchObject({
      strategies: ['naive', 'sab-atomics'],
      scenarios: ['resolve', 'cwd-hot'],
      runtimes: ['deno', 'node'],
      rounds: 3,
      workers: 4,
      json: 'out/r.json',
      html: 'out/r.html',
    });
  });

  it('takes "all" for strategies, scenarios and runtimes', () => {
    expect(parse('--strategy', 'all', '--scenario', 'all', '--runtime', 'all')).toMatchObject({
      strategies: 'all',
      scenarios: SCENARIOS,
      runtimes: ['node', 'node22', 'node24', 'node26', 'bun', 'deno'],
    });
  });

  it('--quick leaves the slow scenarios out unless they are named', () => {
    expect(withSlow(['--quick']).scenarios).toEqual(['cwd-hot', 'chdir-cwd']);
    expect(withSlow(['--quick', '--scenario', 'resolve']).scenarios).toEqual(['resolve']);
    expect(withSlow([]).scenarios).toEqual(SCENARIOS);
  });

  it('takes any strategy name an installed package declares, and only those', () => {
    expect(parse('--strategy', 'ring-buffer').strategies).toEqual(['ring-buffer']);
    expect(() =>
      parseBenchArgs(['--strategy', 'ring-buffer'], { strategies: ['naive'], scenarios: SCENARIOS }),
    ).toThrow('--strategy: unknown "ring-buffer"; valid: naive, all');
  });

  it('suggests the nearest name or flag for a typo', () => {
    expect(usageError(['--runtime', 'node42']).message).toBe(
      '--runtime: unknown "node42" (did you mean node22?); valid: node, node22, node24, node26, bun, deno, all',
    );
    expect(usageError(['--strategy', 'sab-atomic']).message).toMatch(/"sab-atomic" \(did you mean sab-atomics\?\)/);
    expect(usageError(['--round', '3']).message).toMatch(/^unknown option --round \(did you mean --rounds\?\); valid:/);
    expect(usageError(['--jsno', 'x']).message).toMatch(/\(did you mean --json\?\)/);
    expect(usageError(['--zzzzzzzz']).message).not.toMatch(/did you mean/);
  });

  it('refuses unknown names and lists the valid ones', () => {
    const strategy = usageError(['--strategy', 'naive,fast']);
    expect(strategy.message).toBe(
      '--strategy: unknown "fast"; valid: main-thread-cache, mutex, naive, native, ring-buffer, sab-atomics, all',
    );
    expect(strategy.code).toBe('ERR_CWDKIT_BENCH_USAGE');
    expect(strategy.exitCode).toBe(2);
    expect(usageError(['--scenario', 'cwd']).message).toBe(
      '--scenario: unknown "cwd"; valid: cwd-hot, chdir-cwd, resolve, all',
    );
    expect(usageError(['--runtime', 'node,quickjs,v8']).message).toBe(
      '--runtime: unknown "quickjs", "v8"; valid: node, node22, node24, node26, bun, deno, all',
    );
    expect(usageError(['--runtime', ',']).message).toBe(
      '--runtime needs a name; valid: node, node22, node24, node26, bun, deno, all',
    );
  });

  it('refuses bad numbers', () => {
    for (const value of ['0', '-1', '2.5', 'ten', '', '1001']) {
      expect(usageError([`--rounds=${value}`]).message).toBe(
        `--rounds must be a whole number from 1 to 1000, got "${value}"`,
      );
    }
    expect(usageError(['--workers', '65']).message).toBe('--workers must be a whole number from 1 to 64, got "65"');
    expect(usageError(['--rounds', '-1']).message).toMatch(/--rounds/); // parseArgs: a value that looks like an option
  });

  it('refuses unknown options, stray arguments and missing values', () => {
    expect(usageError(['--fast']).message).toMatch(/^unknown option --fast; valid: --strategy, --scenario, --runtime/);
    expect(usageError(['naive']).message).toMatch(/^unexpected argument/);
    expect(usageError(['--json']).message).toMatch(/--json/);
    expect(usageError(['--html', '']).message).toBe('--html needs a file name, got ""');
    expect(usageError(['--quick=yes']).message).toMatch(/--quick/);
  });

  it('has --list, --help and --version', () => {
    expect(parse('--list').list).toBe(true);
    expect(parse('-h').help).toBe(true);
    expect(parse('--version').version).toBe(true);
    expect(parse('-v').version).toBe(true);
  });
});
