#!/usr/bin/env node
// Writes every README's "Measured" section from one recorded run: the text between <!-- measured:start --> and
// <!-- measured:end --> in the root README, benchmarks/README.md, cwdkit's and each strategy's. No number is typed by hand.
// Usage: node benchmarks/scripts/readmes.mjs [results/<run>.json] [--check]
// Without a file: the newest benchmarks/results/*.json. --check: exit 1 if a README is not what the run gives.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchmarks = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const repo = path.dirname(benchmarks);
const args = process.argv.slice(2);
const check = args.includes('--check');
const given = args.find((arg) => !arg.startsWith('--'));
const resultsDir = path.join(benchmarks, 'results');
const file =
  given ??
  fs
    .readdirSync(resultsDir)
    .filter((name) => name.endsWith('.json') && !name.endsWith('.agreement.json'))
    .sort()
    .map((name) => path.join(resultsDir, name))
    .at(-1);
if (!file) {
  console.error('readmes: no results/*.json yet: record a run first (see benchmarks/README.md)');
  process.exit(1);
}
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
if (report.schema !== 2) {
  console.error(`readmes: ${file} has schema ${report.schema}; record a run with this cwdkit-bench (schema 2)`);
  process.exit(1);
}

// Node 24 (the Active LTS most users run) first, then the other Node lines, Bun, Deno.
const ORDER = ['node24', 'node26', 'node22', 'node', 'bun', 'deno'];
const runtimes = [...report.options.runtimes].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
const env = report.environment;
const runtimeName = (runtime) => {
  const version = env.runtimes[runtime] ?? '';
  if (runtime.startsWith('node')) return `Node ${version}`;
  return `${runtime === 'bun' ? 'Bun' : 'Deno'} ${version}`;
};
const strategies = [...new Set(report.summary.filter((row) => row.strategy).map((row) => row.strategy))];
const find = (runtime, scenario, strategy, key = 'provider') =>
  report.summary.find(
    (row) => row.runtime === runtime && row.scenario === scenario && row.strategy === strategy && row.key === key,
  );
const shared = (runtime, scenario, key) =>
  report.summary.find(
    (row) => row.runtime === runtime && row.scenario === scenario && !row.strategy && row.key === key,
  );
const coherent = (runtime, strategy) =>
  report.jobs.some(
    (job) => job.runtime === runtime && job.strategy === strategy && job.result?.capabilities?.workerCoherent,
  );

const digits = (value) =>
  !Number.isFinite(value)
    ? '–'
    : value >= 1e4 || value < 0.01
      ? value.toExponential(1)
      : value >= 100
        ? value.toFixed(0)
        : value >= 10
          ? value.toFixed(1)
          : value.toFixed(2);

/**
 * The one convention: speed-up = baseline time ÷ row time, with its 95% interval; "no difference" when it holds 1. A
 * row whose processes fell into two modes (the summary's `modes`) shows both, never their mean.
 */
export function speedup(row, interval = row?.speedup) {
  if (!interval) return '–';
  if (interval === row?.speedup && row.modes) {
    const [low, high] = row.modes.map((mode) => `${speedup(undefined, mode)} in ${mode.n}`);
    return `bimodal: ${low}${row.flag ? '*' : ''} and ${high} processes`;
  }
  const range = interval.low === undefined ? '' : ` (${digits(interval.low)}–${digits(interval.high)})`;
  const same = interval.low !== undefined && interval.low <= 1 && interval.high >= 1 ? ', no difference' : '';
  return `${digits(interval.estimate)}×${range}${row?.flag ? '*' : ''}${same}`;
}
const ns = (row) => (row ? `${digits(row.p50)} ns${row.flag ? '*' : ''}` : '–');
function stale(row) {
  if (!row?.stale) return '–';
  const share = (100 * row.stale.stale) / row.stale.reads;
  return row.stale.stale === 0 ? '0 stale' : `${share < 0.1 ? '<0.1' : share.toFixed(1)}% stale`;
}
const table = (head, rows) => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((cells) => `| ${cells.join(' | ')} |`),
];

const name = path.basename(file, '.json');
const { rounds, workers, quick } = report.options;
const runtimeList = report.options.runtimes.join(',');
const command =
  `npm run bench -- --runtime ${runtimeList} --rounds ${rounds}` +
  `${workers === 2 ? '' : ` --workers ${workers}`}${quick ? ' --quick' : ''}` +
  ` --json benchmarks/results/${name}.json --html benchmarks/results/${name}.html`;

/** What each runtime's cwd rows were measured against, as the run names it. */
const baselines = () =>
  runtimes
    .map((runtime) => `${shared(runtime, 'cwd-hot', 'baseline')?.label ?? '–'} on ${runtimeName(runtime)}`)
    .join(', ');

/** Where the run comes from, with links relative to the README that shows it. */
function provenance(readme) {
  const results = path.relative(path.dirname(readme), resultsDir).split(path.sep).join('/');
  return [
    `Recorded ${env.date.slice(0, 16).replace('T', ' ')} UTC on ${env.cpu} (${env.cores} cores), ` +
      `${runtimes.map(runtimeName).join(', ')}; ${rounds} rounds${env.commit ? `, at commit ${env.commit.slice(0, 7)}` : ''}. Report: [\`${name}.html\`](${results}/${name}.html), ` +
      `every process in [\`${name}.json\`](${results}/${name}.json). Speed-up = the baseline's time ÷ the row's, ` +
      `both measured in the same process (the baseline: ${baselines()}), geometric mean over rounds with its 95% ` +
      'interval ("no difference" when it ' +
      "holds 1); `*` = at the harness floor or the timer's resolution." +
      (env.pageFaultUs
        ? ` A fresh page's first touch cost ${digits(env.pageFaultUs.start)} µs at the start and ` +
          `${digits(env.pageFaultUs.end)} µs at the end (the machine's state: above 5 µs it is slow, and figures move).`
        : '') +
      ' Written by `node benchmarks/scripts/readmes.mjs`.',
    '',
  ];
}

/** The best strategy for a scenario on a runtime (only worker-coherent ones when `coherentOnly`). */
function best(runtime, scenario, coherentOnly) {
  return strategies
    .filter((strategy) => !coherentOnly || coherent(runtime, strategy))
    .map((strategy) => ({ strategy, row: find(runtime, scenario, strategy) }))
    .filter(({ row }) => row?.speedup)
    .sort((a, b) => b.row.speedup.estimate - a.row.speedup.estimate)[0];
}

function headline(readme) {
  const lines = provenance(readme);
  const cell = (found) => (found ? `${found.strategy} ${speedup(found.row)}` : '–');
  const chdir = (runtime, found) => (found ? speedup(find(runtime, 'chdir-cwd', found.strategy)) : '–');
  lines.push(
    ...table(
      [
        'runtime',
        'main thread: fastest coherent cwd()',
        'its chdir + cwd',
        'workers: fastest coherent cwd()',
        'its chdir + cwd',
      ],
      runtimes.map((runtime) => {
        const main = best(runtime, 'cwd-hot', true);
        const work = best(runtime, 'worker-hot', true);
        return [runtimeName(runtime), cell(main), chdir(runtime, main), cell(work), chdir(runtime, work)];
      }),
    ),
    '',
    ...table(
      [
        'strategy',
        'runtime',
        'cwd()',
        'worker cwd()',
        'cold worker',
        'chdir + cwd',
        'resolve',
        'installed path.resolve',
        'worker reads',
      ],
      strategies.flatMap((strategy) =>
        runtimes
          .filter((runtime) => find(runtime, 'cwd-hot', strategy))
          .map((runtime) => [
            strategy,
            runtimeName(runtime),
            speedup(find(runtime, 'cwd-hot', strategy)),
            speedup(find(runtime, 'worker-hot', strategy)),
            speedup(find(runtime, 'cold-worker', strategy)),
            speedup(find(runtime, 'chdir-cwd', strategy)),
            speedup(find(runtime, 'resolve', strategy)),
            speedup(find(runtime, 'install-resolve', strategy)),
            stale(find(runtime, 'worker-read', strategy)),
          ]),
      ),
    ),
    '',
    'Published claims, named, next to what this run measured (the best strategy for each):',
    '',
  );
  const bestCell = (runtime, scenario) => {
    const found = best(runtime, scenario, false);
    return found ? `${speedup(found.row)} (${found.strategy})` : '–';
  };
  const claims = [
    ["Node's cwd cache PR: process.cwd() cached, 11.7×", (r) => bestCell(r, 'cwd-hot')],
    ['Node\'s cwd cache PR: "process.chdir 10× faster"', (r) => bestCell(r, 'chdir-cwd')],
    ['Node\'s cwd cache PR: "path.resolve up to 66% faster"', (r) => bestCell(r, 'resolve')],
    [
      'resolve reduced to the join alone ((cwd + "/") + "src/index.ts", no checks)',
      (r) => speedup(shared(r, 'resolve', 'join')),
    ],
    ["Deno's cwd cache PR: read_128k_sync −17%", (r) => bestCell(r, 'read-file-permission')],
    [
      "Node's Node-API call benchmark: 20 ns a call (napi.noop())",
      (r) => ns(find(r, 'napi-call', 'native', 'napi-noop')),
    ],
    [
      "the runtime's own process.cwd() in workers while the main thread chdirs (Node 20's cache: racy; Bun's: never updated)",
      (r) => stale(shared(r, 'worker-read', 'baseline')),
    ],
    // real-tsc (40 files, the flag) since the tsc scenario (300 files) went; older runs have only tsc.
    [
      'a real tool: tsc --noEmit with cwdkit installed (wall time)',
      (r) => bestCell(r, best(r, 'real-tsc', false) ? 'real-tsc' : 'tsc'),
    ],
  ];
  lines.push(
    ...table(
      ['claim', ...runtimes.map(runtimeName)],
      claims.map(([claim, measured]) => [claim, ...runtimes.map(measured)]),
    ),
    '',
    ...wholePrograms(),
    ...threadCwd(),
    'To repeat:',
    '',
    '```sh',
    command,
    '```',
  );
  return lines;
}

const signed = (value, unit, scale) =>
  value === undefined ? '–' : `${value >= 0 ? '+' : '−'}${digits(Math.abs(value) / scale)} ${unit}`;

/** A whole-program scenario's verdicts (the run's `programs`), runtime by runtime in the READMEs' order. */
const programsOf = (scenario) =>
  runtimes.flatMap((runtime) =>
    (report.programs ?? []).filter((item) => item.scenario === scenario && item.runtime === runtime),
  );

/**
 * Start-up and real programs (whole processes, one per run) from the run's `programs`, as cwdkit-bench judged them
 * (time with ÷ without, what the flag adds, the target met or not): nothing for a run that has none.
 */
function wholePrograms() {
  const verdicts = report.programs ?? [];
  const lines = [];
  const startup = programsOf('startup');
  if (startup.length > 0) {
    const target = report.scenarios.find((scenario) => scenario.name === 'startup')?.target ?? {};
    lines.push(
      'Start-up of an empty script with `cwdkit/register` preloaded (`--import` on Node, `--preload` on Bun and Deno), ' +
        'against an empty module preloaded the same way, one process per run: time with ÷ without, and what it adds ' +
        `(median of each process's difference; peak RSS by GNU time). Target (#21): ≤ ${target.extraMs} ms and ≤ ${target.extraMiB} MiB.`,
      '',
      ...table(
        ['strategy', 'runtime', 'with ÷ without', 'time', 'peak RSS', 'target'],
        startup.map((item) => [
          `${item.strategy}${item.key === 'no-config' ? ' (no config file)' : ''}`,
          runtimeName(item.runtime),
          speedup(undefined, item.ratio),
          signed(item.extraNs, 'ms', 1e6),
          signed(item.extraRssBytes, 'MiB', 2 ** 20),
          item.verdict,
        ]),
      ),
      '',
    );
  }
  lines.push(...vitestThreads());
  const real = verdicts.filter((item) => item.scenario.startsWith('real-'));
  if (real.length > 0) {
    const programs = [...new Set(real.map((item) => `${item.scenario}\u0000${item.strategy}`))];
    lines.push(
      'Real programs with and without the flag (`NODE_OPTIONS=--import=<register>` on Node, `--preload` on Bun and Deno), ' +
        'one process per run: time with ÷ without (below 1 is faster), with its 95% interval over rounds.',
      '',
      ...table(
        ['program', 'strategy', ...runtimes.map(runtimeName)],
        programs.map((id) => {
          const [scenario, strategy] = id.split('\u0000');
          const label = runtimes.map((runtime) => shared(runtime, scenario, 'baseline')?.label).find(Boolean);
          return [
            label ?? scenario,
            strategy,
            ...runtimes.map((runtime) => {
              const item = real.find(
                (x) => x.scenario === scenario && x.strategy === strategy && x.runtime === runtime,
              );
              return item ? speedup(undefined, item.ratio) : '–';
            }),
          ];
        }),
      ),
      '',
    );
  }
  return lines;
}

/** The example project on vitest's threads pool with thread-cwd's setup entry against forks, from the run's `programs`. */
function vitestThreads() {
  const vitest = programsOf('vitest-threads');
  if (vitest.length === 0) return [];
  return [
    "The example project (`apps/vitest-threads`) on vitest's `pool: 'threads'` with thread-cwd's `setupFiles` entry, " +
      "against `pool: 'forks'` (the user's other choice), one vitest process per run: time threads ÷ forks.",
    '',
    ...table(
      ['runtime', 'threads + thread-cwd ÷ forks', 'time'],
      vitest.map((item) => [
        runtimeName(item.runtime),
        speedup(undefined, item.ratio),
        signed(item.extraNs, 'ms', 1e6),
      ]),
    ),
    '',
  ];
}

/**
 * thread-cwd's rows (#22 item 7) from the run's `goals`: each row's time ÷ the row it is held to, per process, with the
 * goal where there is one; the comparisons (no goal) are the fair baselines of the installed process.cwd(), which
 * loads `cwd` from `process` as the mutable-cache row does not. Nothing for a run that has none.
 */
function threadCwd() {
  const found = (report.goals ?? []).filter((item) => item.scenario.startsWith('thread-cwd-'));
  const starts = programsOf('thread-cwd-start');
  const startLines =
    starts.length === 0
      ? []
      : [
          "A fresh worker with thread-cwd's setup entry, against an empty worker, one worker per run (`thread-cwd-start`): " +
            'time ÷ the empty one, and what the entry adds (median of the differences). Target (#28): ≤ 1 ms in kernel mode.',
          '',
          ...table(
            ['runtime', 'worker', 'with ÷ without', 'time', 'target'],
            starts.map((item) => [
              runtimeName(item.runtime),
              item.label,
              speedup(undefined, item.ratio),
              signed(item.extraNs, 'ms', 1e6),
              item.verdict.replace(' (time; memory not measured)', ''),
            ]),
          ),
          '',
        ];
  if (found.length === 0) return startLines;
  const against = (key) =>
    ({
      'mutable-cache': 'a mutable cache (h.v ?? miss()), called directly',
      absolute: 'the same call with the absolute path',
      provider: 'provider.cwd()',
      'bare-process-cwd': "process.cwd() in a worker without cwdkit (the runtime's own)",
    })[key] ?? key.replace(/^(.*)-process-cwd$/, 'process.cwd() in a worker with $1 installed');
  return [
    "thread-cwd in a worker that chdir'd (Node): a row's time ÷ the row it is held to, per process (geometric mean over " +
      'rounds, 95% interval; above 1 is slower). The installed `process.cwd()` also loads `cwd` from `process` (a ' +
      'dictionary-mode object), which the mutable-cache row does not: the rows without a goal compare it with the same ' +
      'call in a worker without cwdkit and with other strategies installed.',
    '',
    ...table(
      ['runtime', 'row', 'held to', 'time ÷', 'goal'],
      runtimes.flatMap((runtime) =>
        found
          .filter((item) => item.runtime === runtime)
          .map((item) => [
            runtimeName(runtime),
            item.label,
            against(item.against),
            item.ratio ? speedup(undefined, item.ratio).replace(', no difference', '') : '–',
            item.atMost === undefined ? '–' : `≤ ${item.atMost}×, ${item.verdict}`,
          ]),
      ),
    ),
    '',
    ...startLines,
  ];
}

/** The check of this run against the simple harness (apps/bench/test/agreement.test.ts), when it was made. */
function agreementSection(readme) {
  const agreementFile = file.replace(/\.json$/, '.agreement.json');
  if (!fs.existsSync(agreementFile)) {
    return ['Not yet checked against the simple harness (`apps/bench/test/agreement.test.ts`).'];
  }
  const record = JSON.parse(fs.readFileSync(agreementFile, 'utf8'));
  const link = path.relative(path.dirname(readme), agreementFile).split(path.sep).join('/');
  // Checks made before #29 compared the median of the simple harness's processes; later ones their geometric mean
  // (and record the median beside it); since #29 item 5, that of the processes that ran at the machine's own speed
  // (record.inState: a baseline within that factor of the fastest).
  const statistic = record.cases[0]?.simpleMedian === undefined ? 'median' : 'geometric mean';
  const inState = record.inState
    ? `the ${statistic} of the processes whose two rows each ran within ${record.inState}× of their fastest, the ` +
      `machine's own speed (a slow vCPU gives other ratios)`
    : `the ${statistic} of ${record.cases[0]?.simpleRatios.length} processes`;
  return [
    `Checked against a simple harness (one case per process, a hand-written loop per row, the two rows timed ` +
      `alternately; ${inState}), ${record.strategy} on Node ` +
      `${record.version}, tolerance ±${record.tolerance * 100}% ([\`${path.basename(agreementFile)}\`](${link})):`,
    '',
    ...table(
      ['scenario', 'this run', 'simple harness', ...(record.inState ? ['processes'] : []), 'agrees'],
      record.cases.map((c) => [
        c.scenario,
        `${digits(c.engine)}×`,
        c.simple === undefined ? '–' : `${digits(c.simple)}×`,
        ...(record.inState ? [`${c.simpleInState} of ${c.simpleRatios.length}`] : []),
        c.agrees ? 'yes' : c.simple === undefined ? 'undecided: too few processes at speed' : '**no**',
      ]),
    ),
    '',
    'To repeat:',
    '',
    '```sh',
    `CWDKIT_BENCH_AGREEMENT_REPORT=$PWD/benchmarks/results/${name}.json npm run agreement -w @cwdkit/bench`,
    '```',
  ];
}

function strategySection(strategy) {
  return (readme) => {
    const lines = provenance(readme);
    lines.push(
      ...table(
        [
          'runtime',
          'cwd()',
          'vs a mutable cache',
          'worker cwd()',
          'worker miss (invalidate()) vs an OS read',
          'first worker cwd() after a main-thread chdir, vs an OS read',
          'cold worker',
          'chdir + cwd',
          'resolve',
          'worker reads',
        ],
        runtimes
          .filter((runtime) => find(runtime, 'cwd-hot', strategy))
          .map((runtime) => {
            const hot = find(runtime, 'cwd-hot', strategy);
            return [
              runtimeName(runtime),
              speedup(hot),
              speedup(hot, hot?.vsReference),
              speedup(find(runtime, 'worker-hot', strategy)),
              speedup(find(runtime, 'worker-miss', strategy)),
              speedup(find(runtime, 'worker-after-chdir', strategy)),
              speedup(find(runtime, 'cold-worker', strategy)),
              speedup(find(runtime, 'chdir-cwd', strategy)),
              speedup(find(runtime, 'resolve', strategy)),
              stale(find(runtime, 'worker-read', strategy)),
            ];
          }),
      ),
    );
    if (strategy === 'native') {
      const cpu = (runtime) =>
        [1, 20, 100].map((ms) => digits(find(runtime, 'watch-cpu', 'native', `watch-${ms}`)?.p50 ?? Number.NaN));
      lines.push(
        '',
        ...table(
          ['runtime', 'napi.noop()', 'napi.getcwd()', 'watch thread CPU, polling every 1 / 20 / 100 ms (ns per ms)'],
          runtimes.map((runtime) => [
            runtimeName(runtime),
            ns(find(runtime, 'napi-call', 'native', 'napi-noop')),
            ns(find(runtime, 'napi-call', 'native', 'napi-getcwd')),
            cpu(runtime).join(' / '),
          ]),
        ),
      );
    }
    lines.push(
      '',
      'To repeat:',
      '',
      '```sh',
      `npm run bench -- --runtime ${runtimeList} --rounds ${rounds} --strategy ${strategy}`,
      '```',
    );
    return lines;
  };
}

function installSection(readme) {
  const lines = provenance(readme);
  lines.push(
    "`path.resolve('src', 'index.ts')` in code that never heard of cwdkit, after `install()` of each strategy, as a " +
      "speed-up over the runtime's own cwd:",
    '',
    ...table(
      ['strategy', ...runtimes.map(runtimeName)],
      strategies.map((strategy) => [
        strategy,
        ...runtimes.map((runtime) => speedup(find(runtime, 'install-resolve', strategy))),
      ]),
    ),
    '',
    "`cwd()` in a cold worker, one whose main thread never loaded the strategy, against that worker's own " +
      'cwd (`npx cwdkit which` measures it on your machine):',
    '',
    ...table(
      ['strategy', ...runtimes.map(runtimeName)],
      strategies.map((strategy) => [
        strategy,
        ...runtimes.map((runtime) => {
          const row = find(runtime, 'cold-worker', strategy);
          return row ? `${ns(row)}, ${speedup(row)}` : '–';
        }),
      ]),
    ),
    '',
    'To repeat:',
    '',
    '```sh',
    `npm run bench -- --runtime ${runtimeList} --rounds ${rounds} --scenario install-resolve,cold-worker`,
    '```',
  );
  return lines;
}

const targets = [
  [path.join(repo, 'README.md'), headline],
  [path.join(benchmarks, 'README.md'), (readme) => [...headline(readme), '', ...agreementSection(readme)]],
  [path.join(repo, 'packages', 'cwdkit', 'README.md'), installSection],
  ...['naive', 'main-thread-cache', 'sab-atomics', 'mutex', 'native'].map((strategy) => [
    path.join(repo, 'packages', strategy, 'README.md'),
    strategySection(strategy),
  ]),
];
const START = '<!-- measured:start -->';
const END = '<!-- measured:end -->';
let outdated = 0;
for (const [readme, section] of targets) {
  if (!fs.existsSync(readme)) continue;
  const text = fs.readFileSync(readme, 'utf8');
  if (!text.includes(START) || !text.includes(END)) {
    console.error(`readmes: ${readme} has no ${START} … ${END} markers`);
    process.exit(1);
  }
  const head = text.slice(0, text.indexOf(START) + START.length);
  const updated = `${head}\n${section(readme).join('\n')}\n${text.slice(text.indexOf(END))}`;
  if (updated === text) continue;
  if (check) {
    console.error(`readmes: ${path.relative(repo, readme)} is not what ${path.relative(repo, file)} gives`);
    outdated++;
  } else {
    fs.writeFileSync(readme, updated);
    console.log(`readmes: wrote ${path.relative(repo, readme)} from ${path.relative(repo, file)}`);
  }
}
process.exitCode = outdated > 0 ? 1 : 0;
