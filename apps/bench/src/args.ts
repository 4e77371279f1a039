import path from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { isExplicitPath } from 'cwdkit';

/** `node` is the Node that runs the CLI; node22, node24 and node26 are the project's Node binaries from npm. */
export const RUNTIME_NAMES = ['node', 'node22', 'node24', 'node26', 'bun', 'deno'] as const;
export type RuntimeName = (typeof RUNTIME_NAMES)[number];

export interface BenchOptions {
  /** Names asked for (each declared by an installed package, or an explicit module path), or every installed one. */
  readonly strategies: readonly string[] | 'all';
  readonly scenarios: readonly string[];
  readonly runtimes: readonly RuntimeName[];
  readonly rounds: number;
  readonly quick: boolean;
  readonly workers: number;
  /** Time in samples per row, in milliseconds. */
  readonly minCpuTimeMs: number;
  readonly json?: string;
  readonly html?: string;
  readonly list: boolean;
  readonly help: boolean;
  readonly version: boolean;
}

/** A bad command line: the CLI prints the message and exits with 2. */
export class UsageError extends Error {
  readonly code = 'ERR_CWDKIT_BENCH_USAGE';
  readonly exitCode = 2;
}

/** The budgets: rows of 35 ms, 5 rounds; --quick: rows of 10 ms, 2 rounds, no second measurement when an A/A is off. */
export const DEFAULTS = {
  full: { rounds: 5, minCpuTimeMs: 35 },
  quick: { rounds: 2, minCpuTimeMs: 10 },
  workers: 2,
} as const;

export const USAGE = `Usage: cwdkit-bench [options]

  --strategy <names|all>   strategies to measure, comma-separated: names installed packages declare, or module
                           paths (./my-strategy.js, whose default export is a StrategyDefinition) (default: all)
  --scenario <names|all>   scenarios to run, comma-separated (default: all; --quick leaves out real-* and vitest-*)
  --runtime <names|all>    ${RUNTIME_NAMES.join(', ')}, comma-separated (default: node)
  --rounds <N>             processes per (runtime, strategy, scenario) (default: ${DEFAULTS.full.rounds}; --quick: ${DEFAULTS.quick.rounds})
  --quick                  a short smoke run, as CI does
  --workers <N>            reader threads in worker-read (default: ${DEFAULTS.workers})
  --json <file>            write the environment, every round and the summary as JSON
  --html <file>            write a self-contained HTML report
  --list                   list the strategies (with capabilities) and the scenarios, then exit
  -v, --version            print the version
  -h, --help               show this help

Speed-up = the baseline's time ÷ the row's, both measured in the same process (higher is faster), with its 95%
interval over rounds; an interval that holds 1 reads "no difference".
Exit codes: 0 measured and every check held; 1 a process or a check failed; 2 a bad command line.`;

const OPTIONS = {
  strategy: { type: 'string' },
  scenario: { type: 'string' },
  runtime: { type: 'string' },
  rounds: { type: 'string' },
  quick: { type: 'boolean' },
  workers: { type: 'string' },
  json: { type: 'string' },
  html: { type: 'string' },
  list: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

const FLAGS = Object.keys(OPTIONS).map((name) => `--${name}`);

/** Edit distance (insert, delete, substitute, swap two neighbours), for "did you mean". */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The valid choice closest to a mistyped one, if it is close enough to be what was meant (a third of its letters). */
export function didYouMean(asked: string, valid: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of valid) {
    const d = distance(asked, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  const letters = best?.replace(/^-+/, '').length ?? 0;
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(letters / 3)) ? best : undefined;
}

const suggestion = (asked: string, valid: readonly string[]) => {
  const near = didYouMean(asked, valid);
  return near ? ` (did you mean ${near}?)` : '';
};

/** A file named on the command line, from where the user ran npm (INIT_CWD), not this workspace, where npm runs us. */
export const userPath = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

/** A comma-separated list of names from `valid` (or that `accept` takes), or "all". */
function names<T extends string>(
  flag: string,
  value: string,
  valid: readonly T[],
  accept: (name: string) => boolean = () => false,
): T[] | 'all' {
  if (value.trim() === 'all') return 'all';
  const asked = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (asked.length === 0) throw new UsageError(`${flag} needs a name; valid: ${valid.join(', ')}, all`);
  const unknown = asked.filter((name) => !(valid as readonly string[]).includes(name) && !accept(name));
  if (unknown.length > 0) {
    throw new UsageError(
      `${flag}: unknown ${unknown.map((name) => `"${name}"${suggestion(name, valid)}`).join(', ')}; valid: ${valid.join(', ')}, all`,
    );
  }
  return [...new Set(asked)] as T[];
}

function integer(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > max) {
    throw new UsageError(`${flag} must be a whole number from 1 to ${max}, got "${value}"`);
  }
  return Number(value);
}

function fileName(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && (value.trim() === '' || value.startsWith('--'))) {
    throw new UsageError(`${flag} needs a file name, got "${value}"`);
  }
  return value;
}

/** What the command line may name. */
export interface BenchChoices {
  /** The strategy names installed packages declare (`"cwdkit": {"strategy": "<name>"}`). */
  readonly strategies: readonly string[];
  readonly scenarios: readonly string[];
  /** Scenarios that --quick leaves out unless named (tsc and the real programs take minutes). */
  readonly slow?: readonly string[];
}

/** The command line, checked: every mistake is a UsageError that names the valid choices. */
export function parseBenchArgs(argv: readonly string[], choices: BenchChoices): BenchOptions {
  const { scenarios: scenarioNames, slow: slowNames = [] } = choices;
  let values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = (error as Error).message.split('\n')[0] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec(message)?.[1] ?? message;
      throw new UsageError(
        `unknown option ${option}${suggestion(option.split('=')[0] ?? option, FLAGS)}; valid: ${FLAGS.join(', ')}`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new UsageError(`unexpected argument: ${message}; options are: ${FLAGS.join(', ')}`);
    }
    throw new UsageError(message); // a string option without its value names itself
  }
  const quick = values.quick === true;
  const budget = quick ? DEFAULTS.quick : DEFAULTS.full;
  const runtimes = names('--runtime', values.runtime ?? 'node', RUNTIME_NAMES);
  const scenarios = names('--scenario', values.scenario ?? 'all', scenarioNames);
  return {
    strategies: names('--strategy', values.strategy ?? 'all', choices.strategies, isExplicitPath),
    scenarios:
      scenarios !== 'all'
        ? scenarios
        : quick && values.scenario === undefined
          ? scenarioNames.filter((name) => !slowNames.includes(name))
          : scenarioNames,
    runtimes: runtimes === 'all' ? RUNTIME_NAMES : runtimes,
    rounds: integer('--rounds', values.rounds, budget.rounds, 1000),
    quick,
    workers: integer('--workers', values.workers, DEFAULTS.workers, 64),
    minCpuTimeMs: budget.minCpuTimeMs,
    json: fileName('--json', values.json),
    html: fileName('--html', values.html),
    list: values.list === true,
    help: values.help === true,
    version: values.version === true,
  };
}
