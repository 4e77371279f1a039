import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { scenarios } from '@cwdkit/benchmarks';
import { type BenchOptions, parseBenchArgs, USAGE, UsageError, userPath } from './args.js';
import { type ChildSpec, runChild } from './child.js';
import { renderHtml } from './html.js';
import {
  environment,
  failures,
  goalVerdicts,
  harness,
  pageFaultMicros,
  programVerdicts,
  type Report,
  renderScenario,
  renderTable,
  SLOW_PAGE_FAULT_US,
} from './report.js';
import { aaRetriesOf, type JobRecord, planJobs, progress, runGatedJob, runJob } from './run.js';
import { type RuntimeCommand, resolveRuntime } from './runtimes.js';
import {
  discoverStrategies,
  discoverStrategy,
  installedStrategies,
  type StrategyInfo,
  strategyModule,
} from './strategies.js';
import { summarize } from './summary.js';

const SCRIPT = fileURLToPath(import.meta.url);

function listing(strategies: readonly StrategyInfo[]): string {
  const lines = ['Strategies (capabilities on Node, default options):'];
  for (const s of strategies) {
    if (!s.installed) {
      lines.push(`  ${s.name.padEnd(18)} ${s.reason}`);
      continue;
    }
    const c = s.capabilities;
    const external = c?.externalChange === 'bounded' ? `bounded (${c.boundedMs} ms)` : c?.externalChange;
    lines.push(
      `  ${s.name.padEnd(18)} workerCoherent=${c?.workerCoherent} chdirFromWorker=${c?.chdirFromWorker} externalChange=${external}`,
      `  ${''.padEnd(18)} ${s.description}`,
    );
  }
  lines.push('', 'Scenarios:');
  for (const scenario of scenarios) {
    lines.push(`  ${scenario.name.padEnd(22)} ${scenario.description}`, `  ${''.padEnd(22)} claim: ${scenario.claim}`);
  }
  return `${lines.join('\n')}\n`;
}

async function bench(options: BenchOptions): Promise<number> {
  const strategies = await discoverStrategies();
  // A module path given to --strategy is loaded, listed and measured like an installed strategy, under that path.
  for (const name of options.strategies === 'all' ? [] : options.strategies) {
    if (!strategies.some((s) => s.name === name)) strategies.push(await discoverStrategy(name));
  }
  if (options.list) {
    process.stdout.write(listing(strategies));
    return 0;
  }
  const asked = options.strategies === 'all' ? strategies.map((s) => s.name) : options.strategies;
  const selected: string[] = [];
  for (const name of asked) {
    const info = strategies.find((s) => s.name === name) as StrategyInfo;
    if (info.installed) selected.push(name);
    else if (options.strategies !== 'all') process.stderr.write(`note: skipping ${name}: ${info.reason}\n`);
  }
  if (selected.length === 0) {
    process.stderr.write(
      `cwdkit-bench: no strategy to measure: ${strategies.map((s) => `${s.name} ${s.reason}`).join('; ')}\n`,
    );
    return 1;
  }
  let runtimes: RuntimeCommand[];
  try {
    runtimes = options.runtimes.map(resolveRuntime);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_CWDKIT_NO_RUNTIME') throw error;
    process.stderr.write(`cwdkit-bench: ${(error as Error).message}\n`);
    return 1;
  }
  const chosen = scenarios.filter((scenario) => options.scenarios.includes(scenario.name));
  const unavailable = Object.fromEntries(strategies.filter((s) => !s.installed).map((s) => [s.name, `is ${s.reason}`]));
  const { jobs, skipped } = planJobs(options, chosen, selected, unavailable);
  for (const skip of skipped) process.stderr.write(`note: ${skip.scenario} skipped: ${skip.reason}\n`);

  const modules = new Map(selected.map((name) => [name, strategyModule(name) as string]));
  const records: JobRecord[] = [];
  const tick = progress(jobs.length);
  const timeoutMs = options.quick ? 120_000 : 600_000;
  const versions = Object.fromEntries(runtimes.map((runtime) => [runtime.name, runtime.version]));
  const meta = chosen.map(({ name, description, claim, target, goal, compare }) => ({
    name,
    description,
    claim,
    ...(target ? { target } : {}),
    ...(goal ? { goal } : {}),
    ...(compare ? { compare } : {}),
  }));
  // When and at which commit the run started: a commit made while it runs is not what it measured.
  const started = environment(versions);
  const faultUs = started.pageFaultUs?.start ?? 0;
  if (faultUs > SLOW_PAGE_FAULT_US) {
    process.stderr.write(
      `cwdkit-bench: a fresh page's first touch costs ${faultUs.toFixed(1)} µs here (a fast machine: well under 1): ` +
        'the machine is in a slow state, in which whole processes cost several times more and ratios move ' +
        '(the report records it: environment.pageFaultUs)\n',
    );
  }
  for (const [index, job] of jobs.entries()) {
    const runtime = runtimes.find((candidate) => candidate.name === job.runtime);
    if (!runtime) throw new Error(`no command for ${job.runtime}`);
    // The A/A gate: a full run measures an off process again, twice at most (or as the scenario says); a quick run
    // only marks it.
    const scenario = chosen.find((candidate) => candidate.name === job.scenario);
    records.push(
      await runGatedJob(
        () => runJob(job, modules.get(job.strategy) as string, runtime, SCRIPT, options, timeoutMs),
        aaRetriesOf(scenario, options.quick),
      ),
    );
    tick(records.length, job);
    // A scenario's table as soon as its last process on this runtime is done.
    const next = jobs[index + 1];
    if (!next || next.scenario !== job.scenario || next.runtime !== job.runtime) {
      const own = records.filter((record) => record.runtime === job.runtime && record.scenario === job.scenario);
      const block = renderScenario(
        { summary: summarize(own), jobs: own, environment: { runtimes: versions } as Report['environment'] },
        job.runtime,
        meta.find((scenario) => scenario.name === job.scenario) as Report['scenarios'][number],
      );
      if (block) process.stdout.write(`\n${block}\n\n`);
    }
  }

  const { json, html, list: _list, help: _help, version: _version, ...recorded } = options;
  const summary = summarize(records);
  const programs = programVerdicts({ summary, options, scenarios: meta });
  const goals = goalVerdicts({ jobs: records, options, scenarios: meta });
  const report: Report = {
    schema: 2,
    harness: harness(),
    environment: { ...started, pageFaultUs: { start: faultUs, end: pageFaultMicros() } },
    options: recorded,
    strategies,
    scenarios: meta,
    skipped,
    jobs: records,
    summary,
    ...(programs.length > 0 ? { programs } : {}),
    ...(goals.length > 0 ? { goals } : {}),
    failures: failures(records),
  };
  // The tables are above, each printed as its scenario finished; the summary closes the run.
  process.stdout.write(renderTable(report, false));
  for (const [file, text] of [
    [json, `${JSON.stringify(report, null, 2)}\n`],
    [html, renderHtml(report)],
  ] as const) {
    if (!file) continue;
    const target = userPath(file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
    process.stderr.write(`wrote ${file}\n`);
  }
  return report.failures.length > 0 ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--child') {
    await runChild(JSON.parse(argv[1] ?? '') as ChildSpec);
    return 0;
  }
  let options: BenchOptions;
  try {
    options = parseBenchArgs(argv, {
      strategies: [...installedStrategies().keys()].sort(),
      scenarios: scenarios.map((scenario) => scenario.name),
      slow: scenarios.filter((scenario) => scenario.slow).map((scenario) => scenario.name),
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`cwdkit-bench: ${error.message}\nRun cwdkit-bench --help for usage.\n`);
    return error.exitCode;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.version) {
    process.stdout.write(`cwdkit-bench ${harness().version}\n`);
    return 0;
  }
  return bench(options);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`cwdkit-bench: ${(error as Error)?.stack ?? error}\n`);
    process.exitCode = 1;
  },
);
