#!/usr/bin/env node
// Two runs of the bench side by side (issue #29 item 5: each speed-up within ±10% between two runs): every strategy
// row both runs measured, its speed-up in each (both modes of a bimodal row), and how far apart they are.
// Usage: node benchmarks/scripts/compare-runs.mjs <run-a.json> <run-b.json> [--tolerance 0.1]
//   prints a markdown table; exits 1 when a figure moved by more than the tolerance (on the log scale, either way).
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const args = process.argv.slice(2);
const at = args.indexOf('--tolerance');
const tolerance = at >= 0 ? Number(args.splice(at, 2)[1]) : 0.1;
const [fileA, fileB] = args;
if (!fileA || !fileB || !(tolerance > 0)) {
  console.error('usage: compare-runs.mjs <run-a.json> <run-b.json> [--tolerance 0.1]');
  process.exit(2);
}
const load = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const [a, b] = [load(fileA), load(fileB)];
const key = (row) => [row.runtime, row.scenario, row.strategy, row.key].join(' ');
const rowsOf = (report) =>
  new Map(report.summary.filter((row) => row.strategy && row.speedup).map((row) => [key(row), row]));
const [rowsA, rowsB] = [rowsOf(a), rowsOf(b)];

const fmt = (interval) =>
  `${interval.estimate.toFixed(2)}×${interval.low === undefined ? '' : ` (${interval.low.toFixed(2)}–${interval.high.toFixed(2)})`}`;
const cell = (row) =>
  row.modes ? `bimodal: ${row.modes.map((mode) => `${fmt(mode)} in ${mode.n}`).join(', ')}` : fmt(row.speedup);
/** The figures to hold side by side: both modes when both runs found them, else the speed-up of each. */
function apart(rowA, rowB) {
  const pairs =
    rowA.modes && rowB.modes
      ? rowA.modes.map((mode, i) => [mode.estimate, rowB.modes[i].estimate])
      : [[rowA.speedup.estimate, rowB.speedup.estimate]];
  return Math.max(...pairs.map(([x, y]) => Math.abs(Math.log(y / x))));
}

const lines = [
  `| row | ${path.basename(fileA)} | ${path.basename(fileB)} | apart | within ±${tolerance * 100}% |`,
  '|---|---|---|---|---|',
];
let off = 0;
for (const [name, rowA] of rowsA) {
  const rowB = rowsB.get(name);
  if (!rowB) continue;
  const distance = apart(rowA, rowB);
  const within = distance <= Math.log(1 + tolerance);
  if (!within) off++;
  const label = `${rowA.scenario} ${rowA.strategy}${rowA.key === 'provider' ? '' : `: ${rowA.label}`} (${rowA.runtime})`;
  lines.push(
    `| ${label} | ${cell(rowA)} | ${cell(rowB)} | ${((Math.exp(distance) - 1) * 100).toFixed(1)}% | ${within ? 'yes' : '**no**'} |`,
  );
}
console.log(lines.join('\n'));
console.log(`\n${rowsA.size} rows, ${off} apart by more than ${tolerance * 100}%.`);
process.exitCode = off > 0 ? 1 : 0;
