#!/usr/bin/env node
// The headline tables, from a recorded run: prints them as markdown, or with --write puts them into
// benchmarks/README.md and the repository's README.md, between the headline markers.
// Usage: node benchmarks/scripts/headline.mjs [results/<run>.json] [--write]
// Without a file: the newest benchmarks/results/*.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const write = args.includes('--write');
const given = args.find((arg) => !arg.startsWith('--'));
const resultsDir = path.join(root, 'results');
const file =
  given ??
  fs
    .readdirSync(resultsDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => path.join(resultsDir, name))
    .at(-1);
if (!file) {
  console.error('headline: no results/*.json yet: run npm run bench -- --runtime node,bun,deno --json …');
  process.exit(1);
}
const report = JSON.parse(fs.readFileSync(file, 'utf8'));
const runtimes = report.options.runtimes;
const strategies = [...new Set(report.summary.filter((row) => row.strategy).map((row) => row.strategy))];

const find = (runtime, scenario, strategy, key = 'provider') =>
  report.summary.find(
    (row) => row.runtime === runtime && row.scenario === scenario && row.strategy === strategy && row.key === key,
  );
const shared = (runtime, scenario, key) =>
  report.summary.find(
    (row) => row.runtime === runtime && row.scenario === scenario && !row.strategy && row.key === key,
  );

const digits = (value) =>
  value >= 1e4 || value < 0.01
    ? value.toExponential(1)
    : value >= 100
      ? value.toFixed(0)
      : value >= 10
        ? value.toFixed(1)
        : value.toFixed(2);
/** A time ratio as a speed-up: baseline time ÷ row time, with the interval turned round. */
function speedup(interval) {
  if (!interval) return '–';
  const range = interval.low === undefined ? '' : ` (${digits(1 / interval.high)}–${digits(1 / interval.low)})`;
  return `${digits(1 / interval.estimate)}×${range}`;
}
function ratio(interval) {
  if (!interval) return '–';
  const range = interval.low === undefined ? '' : ` (${digits(interval.low)}–${digits(interval.high)})`;
  return `${digits(interval.estimate)}×${range}`;
}
const floor = (row) => (row?.flag ? '*' : '');
const ns = (row) => (row ? `${digits(row.p50)} ns${floor(row)}` : '–');
function stale(row) {
  if (!row?.stale) return '–';
  const share = (100 * row.stale.stale) / row.stale.reads;
  return row.stale.stale === 0 ? '0 stale' : `${share < 0.1 ? '<0.1' : share.toFixed(1)}% stale`;
}

const lines = [];
const env = report.environment;
const name = path.basename(file, '.json');
const { rounds, workers, quick } = report.options;
const command =
  `npm run bench -- --runtime ${runtimes.join(',')} --rounds ${rounds}` +
  `${workers === 2 ? '' : ` --workers ${workers}`}${quick ? ' --quick' : ''}` +
  ` --json benchmarks/results/${name}.json --html benchmarks/results/${name}.html`;
lines.push(
  `Recorded ${env.date.slice(0, 16).replace('T', ' ')} UTC on ${env.cpu} (${env.cores} cores), ` +
    `${runtimes.map((r) => `${r} ${env.runtimes[r]}`).join(', ')}; ${rounds} rounds; strategies: ${strategies.join(', ')}.`,
  `Report: [\`results/${name}.html\`](results/${name}.html), every round in [\`results/${name}.json\`](results/${name}.json). To repeat:`,
  '',
  '```sh',
  command,
  '```',
  '',
  "Speed-up = the baseline's time ÷ the strategy's, measured in the same process, geometric mean over rounds (95% CI).",
  "`vs cached string` is the strategy's time ÷ a closure returning a cached string (1× = as fast as a cached string).",
  '`*`: at the harness floor or the timer\'s resolution: "as fast as can be measured", not an exact figure.',
  '',
);

// Table 1: every strategy on every runtime.
lines.push(
  '| strategy | runtime | cwd() vs process.cwd() | vs cached string | chdir + cwd | resolve vs path.resolve | worker read vs runtime | read 128 KiB + check |',
  '|---|---|---|---|---|---|---|---|',
);
for (const strategy of strategies) {
  for (const runtime of runtimes) {
    const hot = find(runtime, 'cwd-hot', strategy);
    if (!hot) continue;
    const worker = find(runtime, 'worker-read', strategy);
    lines.push(
      `| ${strategy} | ${runtime} | ${speedup(hot.vsBaseline)}${floor(hot)} | ${ratio(hot.vsReference)} | ` +
        `${speedup(find(runtime, 'chdir-cwd', strategy)?.vsBaseline)} | ${speedup(find(runtime, 'resolve', strategy)?.vsBaseline)} | ` +
        `${speedup(worker?.vsBaseline)}, ${stale(worker)} | ${speedup(find(runtime, 'read-file-permission', strategy)?.vsBaseline)} |`,
    );
  }
}

// Table 2: the seeds' claims next to what this run measured.
const best = (runtime, scenario) =>
  strategies
    .map((strategy) => ({ strategy, row: find(runtime, scenario, strategy) }))
    .filter(({ row }) => row?.vsBaseline)
    .sort((a, b) => a.row.vsBaseline.estimate - b.row.vsBaseline.estimate)[0];
const bestCell = (runtime, scenario) => {
  const found = best(runtime, scenario);
  return found ? `${speedup(found.row.vsBaseline)}${floor(found.row)} (${found.strategy})` : '–';
};
const header = `| seed claim | ${runtimes.join(' | ')} |`;
lines.push('', header, `|---|${runtimes.map(() => '---').join('|')}|`);
const seedRow = (claim, cell) => lines.push(`| ${claim} | ${runtimes.map(cell).join(' | ')} |`);
seedRow('000: process.cwd() cached, 5596 → 478 ms per 1e7 calls (11.7×) — best cwd() vs process.cwd()', (r) =>
  bestCell(r, 'cwd-hot'),
);
seedRow('000: process.cwd() itself (ns per call)', (r) => ns(shared(r, 'cwd-hot', 'baseline')));
seedRow('000: "process.chdir 10× faster" — best chdir + cwd', (r) => bestCell(r, 'chdir-cwd'));
seedRow('000: "path.resolve up to 66% faster"; target ≥ 4× on Node — best resolve', (r) => bestCell(r, 'resolve'));
seedRow('003: Deno.cwd 7780 → 1460 ns (5.3×) — best cwd() vs the runtime', (r) => bestCell(r, 'cwd-hot'));
seedRow('003: read_128k_sync 38440 → 31819 ns (−17%) — best read + check', (r) => bestCell(r, 'read-file-permission'));
seedRow('001: a Node-API call, 20 ns (was 36) — napi.noop()', (r) => ns(find(r, 'napi-call', 'native', 'napi-noop')));
seedRow('001: the JS call it is compared with — js()', (r) =>
  find(r, 'napi-call', 'native', 'napi-noop') ? ns(shared(r, 'napi-call', 'baseline')) : '–',
);
seedRow('ARCHITECTURE: getcwd through Node-API ~550 ns — napi.getcwd()', (r) =>
  ns(find(r, 'napi-call', 'native', 'napi-getcwd')),
);
seedRow("ARCHITECTURE: worker reads of the runtime's process.cwd() that are stale", (r) =>
  stale(shared(r, 'worker-read', 'baseline')),
);
const table = lines.join('\n');

if (!write) {
  process.stdout.write(`${table}\n`);
} else {
  // benchmarks/README.md and the repository's README.md, whose links to the results start one folder up.
  const targets = [
    [path.join(root, 'README.md'), table],
    [path.join(root, '..', 'README.md'), table.replaceAll('](results/', '](benchmarks/results/')],
  ];
  const start = '<!-- headline:start -->';
  const end = '<!-- headline:end -->';
  for (const [readme, content] of targets) {
    const text = fs.readFileSync(readme, 'utf8');
    if (!text.includes(start) || !text.includes(end)) {
      console.error(`headline: ${readme} has no ${start} … ${end} markers`);
      process.exit(1);
    }
    const updated = `${text.slice(0, text.indexOf(start) + start.length)}\n${content}\n${text.slice(text.indexOf(end))}`;
    fs.writeFileSync(readme, updated);
    console.log(`headline: updated ${readme} from ${path.relative(process.cwd(), file)}`);
  }
}
