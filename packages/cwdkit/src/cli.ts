import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { didYouMean, hasCode, runtime } from '@cwdkit/core';
import { describeSource, installed, selectStrategy } from './index.js';

const usage = `Usage: cwdkit <command> [options]

Commands:
  which        print the strategy createCwdProvider() chooses in this directory, where the
               choice came from, its capabilities, what is installed in this process, and
               what cwd() costs in a worker whose main thread never loaded it (measured)
  flag         print the Node flag that installs cwdkit/register by its absolute file: URL,
               which child processes find from any directory:
               export NODE_OPTIONS="$(npx cwdkit flag)"
  help         print this text

Options:
  --json       (which) print one JSON object instead of text
  --help, -h   print this text
  --version    print the version of cwdkit

Exit codes: 0 done, 1 the selection failed (the message says why), 2 wrong usage.
`;

const COMMANDS = ['which', 'flag', 'help'];

/** This cwdkit's register module (dist/register.mjs, beside this file: in node_modules an ES module costs Node's
 * start-up ~2 MiB less than the CommonJS one). */
const register = new URL('./register.mjs', import.meta.url);

/**
 * `--import=file:///…/register.mjs`: a bare `--import=cwdkit/register` in NODE_OPTIONS is resolved from each child's
 * own cwd, so a child started outside the project fails to start; the absolute URL does not depend on the cwd (and a
 * file: URL has no spaces to quote).
 */
const nodeFlag = () => `--import=${register.href}`;

/** How to run the app with the register module preloaded, on the runtime this CLI runs on. */
function preloadAdvice(): string {
  if (runtime === 'deno') {
    // Deno cannot --preload npm: a package installed from a file: folder or a tarball; a path always works.
    const file = fileURLToPath(new URL('./register.mjs', import.meta.url));
    return `deno run --preload npm:cwdkit/register, or --preload ${file} from a file: or tarball install`;
  }
  if (runtime === 'bun') return 'bun --preload cwdkit/register';
  return 'node "$(npx cwdkit flag)" app.js (its workers too, wherever the app chdirs), or NODE_OPTIONS="$(npx cwdkit flag)" for child processes too';
}

function version(): string {
  const manifest = new URL('../package.json', import.meta.url);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** What a cold worker's cwd() costs, against that worker's own process.cwd(), in ns a call. */
interface ColdWorker {
  readonly cwdNs: number;
  readonly runtimeNs: number;
}

// Runs in a worker of a fresh process whose main thread never imports the strategy: a pool whose main thread only
// orchestrates. The fastest of a few blocks of calls, so a preemption does not count. The result is the last line of
// the output, marked, so that a strategy that prints cannot be mistaken for it.
const MARK = '@@cwdkit-cold-worker ';
const COLD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.cwdkit).then(async ({ createCwdProvider }) => {
  const provider = await createCwdProvider({ strategy: workerData.module, options: workerData.options });
  const sink = [];
  const cost = (fn) => {
    let best = Infinity;
    for (let block = 0; block < 6; block++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < 2000; i++) sink[i & 7] = fn();
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 2000);
    }
    return best;
  };
  parentPort.postMessage({ cwdNs: cost(() => provider.cwd()), runtimeNs: cost(() => process.cwd()) });
  provider.close();
});`;
// Exits as soon as the worker answered: a handle a strategy leaves open must not hold the CLI. The worker may end
// while the answer is still being written: that is no failure.
const COLD_MAIN = `
const { Worker } = require('node:worker_threads');
const worker = new Worker(${JSON.stringify(COLD_WORKER)}, { eval: true, workerData: JSON.parse(process.argv[1]) });
let answered = false;
worker.on('message', (cost) => { answered = true; process.stdout.write(${JSON.stringify(MARK)} + JSON.stringify(cost) + '\\n', () => process.exit(0)); });
worker.on('error', (error) => { console.error(String(error?.message ?? error)); process.exit(1); });
worker.on('exit', () => { if (answered) return; console.error('the worker stopped without a result'); process.exit(1); });`;
const TIMEOUT_MS = 30_000;

/**
 * A worker whose main thread never loaded a strategy finds none of the shared memory the main thread publishes, so
 * coherent strategies read the OS on every cwd() there (trap 3). Measured in a child Node process, as it is: without
 * NODE_OPTIONS, whose --import cwdkit/register would load the strategy on its main thread.
 */
function coldWorker(module: string, options: unknown): Promise<ColdWorker | Error> {
  if (runtime !== 'node') return Promise.resolve(new Error(`the probe runs on Node, not ${runtime}`));
  // The worker selects through this very cwdkit, by the module's path: the same loading rules as `which`.
  const data = JSON.stringify({ cwdkit: new URL('./index.js', import.meta.url).href, module, options });
  const env = { ...process.env, NODE_OPTIONS: '' };
  return new Promise((resolve) => {
    execFile(process.execPath, ['-e', COLD_MAIN, data], { timeout: TIMEOUT_MS, env }, (error, stdout, stderr) => {
      const line = stdout.split('\n').find((text) => text.startsWith(MARK));
      if (!error && line) {
        try {
          return resolve(JSON.parse(line.slice(MARK.length)) as ColdWorker);
        } catch {}
      }
      const reason = error?.killed
        ? `no answer in ${TIMEOUT_MS / 1000} s`
        : stderr.trim().split('\n').at(-1) || 'the probe gave no result';
      resolve(new Error(reason));
    });
  });
}

/**
 * The `cold workers` line: the cost, and what to do when it is an OS read a call. Under a preload (something is
 * installed on this main thread) the advice is already followed, and says so.
 */
function describeColdWorker(name: string, cost: ColdWorker | Error, active: string | undefined): string {
  if (cost instanceof Error) return `not measured: ${cost.message}`;
  // Two digits below 100; 99.97 rounds to 100 there, which toPrecision(2) spells 1.0e+2: whole numbers from 99.5.
  const ns = (value: number) => (value >= 99.5 ? Math.round(value).toString() : value.toPrecision(2));
  const text = `${ns(cost.cwdNs)} ns a cwd() in a worker whose main thread never loaded ${name} (the worker's process.cwd(): ${ns(cost.runtimeNs)} ns)`;
  if (cost.cwdNs <= 10 * cost.runtimeNs) return text;
  return active !== undefined
    ? `${text}: an OS read a call; not so in this process: its main thread has ${active} preloaded`
    : `${text}: an OS read a call; load it on the main thread first: ${preloadAdvice()}`;
}

async function which(json: boolean): Promise<void> {
  const { definition, request, module, source, options, skipped } = await selectStrategy();
  // Capabilities may depend on the options, so ask a real provider.
  const provider = definition.create(options);
  const { capabilities } = provider;
  provider.close();
  const active = installed();
  const cold =
    module === undefined ? new Error('the strategy was passed as an object') : await coldWorker(module, options);
  if (json) {
    const reasons = skipped.map(({ request, error }) => ({
      request,
      code: hasCode(error) ? error.code : undefined,
      message: error.message,
    }));
    const report = {
      strategy: definition.name,
      request,
      module,
      source,
      options,
      skipped: reasons,
      capabilities,
      installed: active ?? null,
      coldWorker: cold instanceof Error ? { error: cold.message } : cold,
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const lines = [
    ['strategy', definition.name],
    ['module', module ?? '(passed as an object)'],
    ['chosen by', describeSource(source)],
    ...(options !== undefined ? [['options', JSON.stringify(options)]] : []),
    ...skipped.map(({ request, error }) => ['skipped', `${request}: ${error.message}`]),
    [
      'capabilities',
      Object.entries(capabilities)
        .map(([key, value]) => `${key}: ${value}`)
        .join(', '),
    ],
    ['installed', active ?? `nothing (to install it: ${preloadAdvice()})`],
    ['cold workers', describeColdWorker(definition.name, cold, active)],
  ];
  process.stdout.write(lines.map(([label, text]) => `${label?.padEnd(13)} ${text}\n`).join(''));
}

function usageError(message: string): number {
  process.stderr.write(`cwdkit: ${message}\n\n${usage}`);
  return 2;
}

async function main(args: string[]): Promise<number> {
  if (args.includes('--version') || args.includes('-v')) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const json = args.includes('--json');
  const rest = args.filter((arg) => arg !== '--json');
  const [command, ...extra] = rest;
  if (command === undefined) return usageError('no command given');
  if (command === 'help' || command === '--help' || command === '-h' || rest.includes('--help')) {
    process.stdout.write(usage);
    return 0;
  }
  if (!COMMANDS.includes(command)) {
    const hint = didYouMean(command.replace(/^-+/, ''), COMMANDS);
    return usageError(
      `unknown ${command.startsWith('-') ? 'option' : 'command'} "${command}"${hint ? ` (did you mean "${hint}"?)` : ''}`,
    );
  }
  if (extra.length > 0) return usageError(`unexpected argument "${extra.join(' ')}"`);
  if (command === 'flag') {
    process.stdout.write(`${nodeFlag()}\n`);
    return 0;
  }
  try {
    await which(json);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = hasCode(error) ? error.code : undefined;
    // --json: a script reads stdout, so the failure is JSON there too (and still one line on stderr for a person).
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: code ?? null, message } }, null, 2)}\n`);
    process.stderr.write(`cwdkit: ${message}${code ? ` [${code}]` : ''}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
// Done, whatever the strategy it loaded left running (a timer, a handle): exit once the output is flushed.
process.stderr.write('', () => process.stdout.write('', () => process.exit(code)));
