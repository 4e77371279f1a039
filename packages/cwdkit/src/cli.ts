import { readFileSync } from 'node:fs';
import process from 'node:process';
import { didYouMean, hasCode } from '@cwdkit/core';
import { describeSource, installed, selectStrategy } from './index.js';

const usage = `Usage: cwdkit <command> [options]

Commands:
  which        print the strategy createCwdProvider() chooses in this directory, where the
               choice came from, its capabilities, and what is installed in this process
  help         print this text

Options:
  --json       (which) print one JSON object instead of text
  --help, -h   print this text
  --version    print the version of cwdkit

Exit codes: 0 done, 1 the selection failed (the message says why), 2 wrong usage.
`;

const COMMANDS = ['which', 'help'];

function version(): string {
  const manifest = new URL('../package.json', import.meta.url);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

async function which(json: boolean): Promise<void> {
  const { definition, request, module, source, options, skipped } = await selectStrategy();
  // Capabilities may depend on the options, so ask a real provider.
  const provider = definition.create(options);
  const { capabilities } = provider;
  provider.close();
  const active = installed();
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
    ['installed', active ?? 'nothing (run with --import cwdkit/register to install it)'],
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
  try {
    await which(json);
    return 0;
  } catch (error) {
    const code = hasCode(error) ? ` [${error.code}]` : '';
    process.stderr.write(`cwdkit: ${error instanceof Error ? error.message : String(error)}${code}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
