#!/usr/bin/env node
import process from 'node:process';
import { describeSource, hasCode, selectStrategy } from './index.js';

const usage = `Usage: cwdkit which [--json]

Commands:
  which    print the strategy createCwdProvider() chooses in this directory, where the
           choice came from, and its capabilities
  help     print this text

Options:
  --json   print one JSON object instead of text
`;

async function which(json: boolean): Promise<void> {
  const { definition, request, module, source, options, skipped } = await selectStrategy();
  // Capabilities may depend on the options, so ask a real provider.
  const provider = definition.create(options);
  const { capabilities } = provider;
  provider.close();
  if (json) {
    const reasons = skipped.map(({ request, error }) => ({
      request,
      code: hasCode(error) ? error.code : undefined,
      message: error.message,
    }));
    const report = { strategy: definition.name, request, module, source, options, skipped: reasons, capabilities };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const lines = [
    ['strategy', definition.name],
    ['module', module],
    ['chosen by', describeSource(source)],
    ...skipped.map(({ request, error }) => ['skipped', `${request}: ${error.message}`]),
    [
      'capabilities',
      Object.entries(capabilities)
        .map(([key, value]) => `${key}: ${value}`)
        .join(', '),
    ],
  ];
  if (options !== undefined) lines.splice(3, 0, ['options', JSON.stringify(options)]);
  process.stdout.write(lines.map(([label, text]) => `${label?.padEnd(13)} ${text}\n`).join(''));
}

async function main(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const rest = args.filter((arg) => arg !== '--json');
  const [command, ...extra] = rest;
  if ((command === 'help' || command === '--help' || command === '-h') && extra.length === 0) {
    process.stdout.write(usage);
    return 0;
  }
  if (command !== 'which' || extra.length > 0) {
    process.stderr.write(command === undefined ? usage : `cwdkit: unknown command "${rest.join(' ')}"\n\n${usage}`);
    return 2;
  }
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
