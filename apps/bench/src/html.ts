import {
  AA_NOTE,
  formatInterval,
  formatMiB,
  formatMs,
  formatNumber,
  formatStale,
  goalVerdicts,
  notApplicable,
  programRowName,
  programVerdicts,
  type Report,
  SLOW_PAGE_FAULT_US,
  scenarioRows,
  speedupCell,
  timeRatioCell,
  verdicts,
} from './report.js';
import { holdsOne, type Interval } from './stats.js';
import { type RowSummary, rowName } from './summary.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

const LABEL_WIDTH = 300;
const PLOT_WIDTH = 460;
const ROW_HEIGHT = 26;
const AXIS_HEIGHT = 34;

/** Ticks of a log axis: 1, 2, 5 × powers of ten inside [low, high], thinned to one per `minGap` of the axis. */
function ticks(low: number, high: number, x: (value: number) => number, minGap: number): number[] {
  const found: number[] = [];
  for (let power = Math.floor(Math.log10(low)); power <= Math.ceil(Math.log10(high)); power++) {
    for (const step of [1, 2, 5]) {
      const value = step * 10 ** power;
      if (value < low || value > high) continue;
      const last = found.at(-1);
      // Keep 1× always: it is the baseline's line.
      if (last === undefined || x(value) - x(last) >= minGap) found.push(value);
      else if (value === 1) found[found.length - 1] = 1;
    }
  }
  return found;
}

/** How far a quick run's whiskers may reach, as a factor beyond the axis's estimates: a 2-round interval is mostly noise. */
const QUICK_CLIP = 4;

/**
 * Speed-up over the baseline (its time ÷ the row's), on a log axis, with bars that start at 1: to the right is faster,
 * to the left slower; grey when the interval holds 1 ("no difference"). Whiskers are the 95% confidence interval over
 * rounds; with `clip` (a quick run) they stop at QUICK_CLIP× beyond the estimates and end in an arrow.
 */
export function chart(rows: readonly RowSummary[], clip = false): string {
  const plotted = rows.filter((row) => row.role === 'baseline' || row.speedup);
  if (plotted.length === 0) return '';
  const estimates = plotted.flatMap((row) =>
    row.role === 'baseline' ? [1] : (row.modes ?? [row.speedup]).map((interval) => interval?.estimate as number),
  );
  const whiskers = plotted.flatMap((row) =>
    (row.modes ?? [row.speedup]).flatMap((interval) => [interval?.low, interval?.high]),
  );
  const finite = (values: (number | undefined)[]) =>
    values.filter((value): value is number => value !== undefined && Number.isFinite(value) && value > 0);
  const spread = clip ? finite(estimates) : finite([...estimates, ...whiskers]);
  let low = Math.min(1, ...spread) / 1.6;
  let high = Math.max(1, ...spread) * 1.6;
  if (clip) {
    low = Math.max(Math.min(low, ...finite(whiskers)), low / QUICK_CLIP);
    high = Math.min(Math.max(high, ...finite(whiskers)), high * QUICK_CLIP);
  }
  const x = (value: number) =>
    LABEL_WIDTH +
    ((Math.log(Math.min(Math.max(value, low), high)) - Math.log(low)) / (Math.log(high) - Math.log(low))) * PLOT_WIDTH;
  const height = plotted.length * ROW_HEIGHT + AXIS_HEIGHT;
  const parts: string[] = [];
  for (const tick of ticks(low, high, x, 52)) {
    parts.push(
      `<line x1="${x(tick)}" x2="${x(tick)}" y1="0" y2="${height - AXIS_HEIGHT + 4}" class="grid"/>`,
      `<text x="${x(tick)}" y="${height - AXIS_HEIGHT + 18}" class="tick">${tick < 1e-3 || tick >= 1e4 ? tick.toExponential(0) : Number(tick.toPrecision(1))}×</text>`,
    );
  }
  plotted.forEach((row, index) => {
    const top = index * ROW_HEIGHT;
    const middle = top + ROW_HEIGHT / 2;
    const estimate = row.role === 'baseline' ? 1 : (row.speedup?.estimate as number);
    const kind = (interval: Interval | undefined, value: number) =>
      row.role === 'subject' ? (holdsOne(interval) ? 'same' : value >= 1 ? 'faster' : 'slower') : row.role;
    parts.push(
      `<text x="${LABEL_WIDTH - 8}" y="${middle + 4}" class="label">${escapeHtml(rowName(row))}${row.flag ? ' *' : ''}${row.aaOff ? ' !' : ''}</text>`,
    );
    // A bimodal row: a bar of half the height for each mode, never one for their mean.
    const bars: { interval?: Interval; value: number }[] = row.modes
      ? row.modes.map((mode) => ({ interval: mode, value: mode.estimate }))
      : [{ ...(row.speedup ? { interval: row.speedup } : {}), value: estimate }];
    const barHeight = (ROW_HEIGHT - 10) / bars.length;
    let right = x(1);
    bars.forEach(({ interval, value }, k) => {
      const barTop = top + 5 + k * barHeight;
      const center = barTop + barHeight / 2;
      const from = Math.min(x(1), x(value));
      parts.push(
        `<rect x="${from}" y="${barTop}" width="${Math.max(Math.abs(x(value) - x(1)), 2)}" height="${barHeight - (bars.length > 1 ? 1 : 0)}" class="bar ${kind(interval, value)}"><title>${escapeHtml(`${rowName(row)}: ${speedupCell(row)}, p50 ${formatNumber(row.p50)} ns`)}</title></rect>`,
      );
      const { low: ciLow, high: ciHigh } = interval ?? {};
      if (ciLow !== undefined && ciHigh !== undefined) {
        const half = Math.min(6, barHeight / 2);
        parts.push(`<line x1="${x(ciLow)}" x2="${x(ciHigh)}" y1="${center}" y2="${center}" class="whisker"/>`);
        for (const [end, clipped, direction] of [
          [ciLow, ciLow < low, -1],
          [ciHigh, ciHigh > high, 1],
        ] as const) {
          const at = x(end);
          parts.push(
            clipped
              ? `<path d="M${at} ${center - 5}L${at + 6 * direction} ${center}L${at} ${center + 5}Z" class="clipped"><title>interval clipped (quick run)</title></path>`
              : `<line x1="${at}" x2="${at}" y1="${center - half}" y2="${center + half}" class="whisker"/>`,
          );
        }
      }
      right = Math.max(right, x(value), x(ciHigh ?? value) + (ciHigh !== undefined && ciHigh > high ? 6 : 0));
    });
    const verdict = row.role !== 'baseline' && !row.modes && holdsOne(row.speedup) ? ' no difference' : '';
    const value = row.modes
      ? `bimodal: ${row.modes.map((mode) => `${formatNumber(mode.estimate)}× (${mode.n})`).join(', ')}`
      : `${formatNumber(estimate)}×${verdict}`;
    parts.push(`<text x="${right + 6}" y="${middle + 4}" class="value">${escapeHtml(value)}</text>`);
  });
  parts.push(`<line x1="${x(1)}" x2="${x(1)}" y1="0" y2="${height - AXIS_HEIGHT + 4}" class="one"/>`);
  const width = LABEL_WIDTH + PLOT_WIDTH + 130;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">${parts.join('')}</svg>`;
}

function table(head: string[], rows: string[][]): string {
  // Figures right-aligned, words left-aligned; a column's header follows its figures.
  const numeric = (cell: string | undefined) => cell !== undefined && /^[-+\d–]/.test(cell);
  const figures = head.map((_, column) => rows.some((row) => numeric(row[column])));
  const cells = (tag: string, row: string[], aligned: (cell: string, column: number) => boolean) =>
    `<tr>${row.map((cell, column) => `<${tag}${aligned(cell, column) ? ' class="n"' : ''}>${cell}</${tag}>`).join('')}</tr>`;
  const body = rows.map((row) => cells('td', row, (cell) => numeric(cell))).join('');
  return `<table><thead>${cells('th', head, (_, column) => column > 0 && (figures[column] ?? false))}</thead><tbody>${body}</tbody></table>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1000px;color:#1d1d1f;background:#fff;padding:0 16px}
h1{font-size:24px}h2{font-size:19px;margin-top:36px;border-bottom:1px solid #ddd}h3{font-size:16px;margin-bottom:2px}
.claim{color:#555;margin:0 0 8px}table{border-collapse:collapse;margin:8px 0 4px}
td,th{padding:3px 10px;border-bottom:1px solid #eee;text-align:left}.n{text-align:right}
.grid{stroke:#e4e4e4}.one{stroke:#333;stroke-width:1.5}.tick{font-size:11px;text-anchor:middle;fill:#555}
.label{font-size:12px;text-anchor:end;fill:#1d1d1f}.value{font-size:11px;fill:#333}
.bar.faster{fill:#2e9e5b}.bar.slower{fill:#d1495b}.bar.same{fill:#9a9a9a}.clipped{fill:#111}
.verdicts td:first-child{font-weight:600}.bar.baseline{fill:#555}.bar.reference{fill:#6c8ebf}.bar.comparison{fill:#9bb0d0}
.bar.control{fill:#b5b5b5}.whisker{stroke:#111;stroke-width:1.5}.note{color:#555;font-size:12px}.fail{color:#b00020}
`;

/** The self-contained report: no script, no external asset; every chart is inline SVG. */
export function renderHtml(report: Report): string {
  const env = report.environment;
  const sections: string[] = [];
  for (const runtime of report.options.runtimes) {
    const blocks: string[] = [];
    for (const scenario of report.scenarios) {
      const rows = scenarioRows(report.summary, runtime, scenario.name);
      if (rows.length === 0) continue;
      const flags = [
        ...new Set(
          rows.flatMap((row) => [...(row.flag ? [`* ${row.flag}`] : []), ...(row.aaOff ? [`! ${AA_NOTE}`] : [])]),
        ),
      ];
      blocks.push(
        `<section class="scenario" data-runtime="${runtime}" data-scenario="${escapeHtml(scenario.name)}">`,
        `<h3>${escapeHtml(scenario.name)}</h3><p class="claim">${escapeHtml(scenario.description)}. Claim: ${escapeHtml(scenario.claim)}</p>`,
        chart(rows, report.options.quick),
        rows.some((row) => row.processes)
          ? table(
              ['row', 'p50 ms', 'min ms', 'p99 ms', '÷ baseline [95% CI]', '+ms', 'peak RSS MiB', '+MiB', 'rounds'],
              rows.map((row) => [
                escapeHtml(rowName(row)),
                formatMs(row.p50),
                formatMs(row.min),
                formatMs(row.p99),
                escapeHtml(timeRatioCell(row)),
                row.role === 'baseline' ? '' : formatMs(row.processes?.extraNs, true),
                formatMiB(row.processes?.peakRssBytes),
                row.role === 'baseline' ? '' : formatMiB(row.processes?.extraRssBytes, true),
                String(row.n),
              ]),
            )
          : table(
              ['row', 'p50 ns', 'min ns', 'p99 ns', 'speed-up [95% CI]', '× reference', 'rounds'],
              rows.map((row) => [
                escapeHtml(rowName(row)) + (row.flag ? ' *' : ''),
                formatNumber(row.p50),
                formatNumber(row.min),
                formatNumber(row.p99),
                escapeHtml(speedupCell(row)),
                escapeHtml(formatInterval(row.vsReference)),
                String(row.n),
              ]),
            ),
        ...flags.map((flag) => `<p class="note">${escapeHtml(flag)}</p>`),
        '</section>',
      );
    }
    sections.push(`<h2 id="${runtime}">${runtime} ${escapeHtml(env.runtimes[runtime] ?? '')}</h2>${blocks.join('')}`);
  }
  // Capabilities as each runtime reported them (naive is coherent on Deno only).
  const coherent = new Map(
    report.jobs.map((job) => [`${job.runtime} ${job.strategy}`, job.result?.capabilities?.workerCoherent]),
  );
  const staleRows = report.options.runtimes.flatMap((runtime) =>
    scenarioRows(report.summary, runtime, 'worker-read').filter((row) => row.stale),
  );
  const staleTable = staleRows.length
    ? table(
        ['runtime', 'reader', 'workerCoherent', 'stale / reads'],
        staleRows.map((row) => [
          row.runtime,
          escapeHtml(rowName(row)),
          row.strategy ? String(coherent.get(`${row.runtime} ${row.strategy}`) ?? '–') : 'runtime',
          formatStale(row.stale),
        ]),
      )
    : '<p>worker-read was not run.</p>';
  const strategies = table(
    ['strategy', 'installed', 'workerCoherent', 'chdirFromWorker', 'externalChange'],
    report.strategies.map((s) => [
      s.name,
      s.installed ? 'yes' : escapeHtml(s.reason ?? 'no'),
      String(s.capabilities?.workerCoherent ?? '–'),
      String(s.capabilities?.chdirFromWorker ?? '–'),
      escapeHtml(s.capabilities?.externalChange ?? '–'),
    ]),
  );
  const environment = table(
    ['', ''],
    [
      ['date', env.date],
      ['CPU', `${escapeHtml(env.cpu)} (${env.cores} cores)`],
      [
        'system',
        `${env.platform} ${escapeHtml(env.release)} ${env.arch}, ${(env.memoryBytes / 2 ** 30).toFixed(1)} GiB`,
      ],
      ...Object.entries(env.runtimes).map(([name, version]) => [name, escapeHtml(version)]),
      [
        'harness',
        `${report.harness.name} ${report.harness.version}${report.harness.mitata ? `, mitata ${report.harness.mitata}` : ''}`,
      ],
      [
        'run',
        `${report.options.rounds} rounds${report.options.quick ? ' (--quick)' : ''}, ${report.options.workers} reader threads, min_cpu_time ${report.options.minCpuTimeMs} ms per row`,
      ],
      ...(env.commit ? [['commit', env.commit]] : []),
      ...(env.pageFaultUs
        ? [
            [
              'page fault',
              `${env.pageFaultUs.start.toFixed(2)} µs at the start${env.pageFaultUs.end === undefined ? '' : `, ${env.pageFaultUs.end.toFixed(2)} µs at the end`} (a first touch of a fresh page; above ${SLOW_PAGE_FAULT_US} µs the machine is in a slow state)`,
            ],
          ]
        : []),
    ],
  );
  const verdictRows = verdicts(report).map((verdict) => {
    const say = (what: (typeof verdict)['mainThread']) =>
      what ? `${escapeHtml(what.strategy)} ${escapeHtml(formatInterval(what.speedup))}` : 'not measured';
    const chdir = (what: (typeof verdict)['mainThread']) =>
      what?.chdir ? escapeHtml(formatInterval(what.chdir)) : '–';
    return [
      `${verdict.runtime} ${escapeHtml(env.runtimes[verdict.runtime] ?? '')}`,
      say(verdict.mainThread),
      chdir(verdict.mainThread),
      say(verdict.workers),
      chdir(verdict.workers),
    ];
  });
  const summary = `<section id="summary" class="verdicts"><h2>Summary</h2>
<p>Per runtime, the fastest worker-coherent strategy: its speed-up over the runtime's own <code>cwd()</code> on the main thread and in workers, and what its <code>chdir()</code> + <code>cwd()</code> costs against the runtime's own pair (speed-up: below 1 is slower).</p>
${table(['runtime', 'main thread', 'its chdir + cwd', 'workers', 'its chdir + cwd'], verdictRows)}</section>`;
  const programs = report.programs ?? programVerdicts(report);
  const programSection = programs.length
    ? `<section id="programs" class="verdicts"><h2>Whole programs</h2>
<p>Start-up and real programs, one process per run: the time with cwdkit ÷ without (below 1 is faster, 95% interval over
rounds), and what cwdkit adds (the median of each process's difference).${report.scenarios
        .filter((scenario) => scenario.target)
        .map(
          (scenario) =>
            ` Target of ${escapeHtml(scenario.name)}: at most ${scenario.target?.extraMs} ms and ${scenario.target?.extraMiB} MiB over its baseline.`,
        )
        .join('')}</p>
${table(
  ['runtime', 'scenario', 'row', 'with ÷ without [95% CI]', '+ms', '+MiB', 'verdict'],
  programs.map((item) => [
    `${item.runtime} ${escapeHtml(env.runtimes[item.runtime] ?? '')}`,
    escapeHtml(item.scenario),
    escapeHtml(programRowName(item)),
    escapeHtml(formatInterval(item.ratio)),
    formatMs(item.extraNs, true),
    formatMiB(item.extraRssBytes, true),
    escapeHtml(item.verdict),
  ]),
)}</section>`
    : '';
  const goals = report.goals ?? goalVerdicts(report);
  const goalSection = goals.length
    ? `<section id="goals" class="verdicts"><h2>Goals</h2>
<p>A row's time ÷ the row it is held to, per process (geometric mean over rounds, 95% interval), against the scenario's goal; the rows with no goal are the fair comparisons a scenario names beside it.</p>
${table(
  ['runtime', 'scenario', 'row', 'held to', 'ratio [95% CI]', 'goal', 'verdict'],
  goals.map((item) => [
    `${item.runtime} ${escapeHtml(env.runtimes[item.runtime] ?? '')}`,
    escapeHtml(item.scenario),
    escapeHtml(`${item.strategy}: ${item.label}`),
    escapeHtml(item.against),
    escapeHtml(item.ratio ? formatInterval(item.ratio).replace(' no difference', '') : '–'),
    item.atMost === undefined ? '–' : `≤ ${item.atMost}×`,
    escapeHtml(item.verdict),
  ]),
)}</section>`
    : '';
  const skipped = [
    ...report.skipped.map(
      (skip) => `<p class="note">${escapeHtml(skip.scenario)}: skipped, ${escapeHtml(skip.reason)}</p>`,
    ),
    ...report.options.runtimes.flatMap((runtime) =>
      report.scenarios.flatMap((scenario) =>
        notApplicable(report.jobs, runtime, scenario.name).map(
          (reason) =>
            `<p class="note">${escapeHtml(scenario.name)} on ${escapeHtml(runtime)}: not applicable, not measured (${escapeHtml(reason)})</p>`,
        ),
      ),
    ),
  ];
  const failed = report.failures.length
    ? `<h2 class="fail">Failures</h2><ul>${report.failures.map((line) => `<li class="fail">${escapeHtml(line)}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>cwdkit benchmark report</title><style>${STYLE}</style></head>
<body>
<h1>cwdkit benchmark report</h1>
${summary}
${programSection}
${goalSection}
<p>Each bar is a row's speed-up: the baseline's time per operation divided by the row's, both measured in the same
process (right of the line: faster), the geometric mean over rounds; whiskers are its 95% confidence interval. Grey:
the interval holds 1, "no difference". The A/A control is the baseline measured again: its interval should hold 1.
Rows marked * are at the harness floor or the timer's resolution; ! where the A/A control stayed off.${report.options.quick ? ' This is a quick run: whiskers are clipped, an arrow marks where.' : ''}</p>
${failed}
<h2>Strategies</h2>${strategies}
${sections.join('\n')}
${skipped.join('')}
<h2 id="stale">Stale reads (worker-read)</h2>
<p>Readers bracket each read with two loads of the generation the main thread publishes after each chdir; a read is stale
when it matches no directory that was current between the two loads.</p>
${staleTable}
<h2 id="environment">Environment</h2>${environment}
</body></html>
`;
}
