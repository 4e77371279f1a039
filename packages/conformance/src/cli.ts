#!/usr/bin/env node
// cwdkit-conformance <module> [--options <json>] [--only <title>]...: the suite outside vitest, on Node, Bun or Deno.
// Exit codes: 0 every check passed or was skipped, 1 a check failed, 2 bad arguments or a module that is no strategy.
import fs from 'node:fs';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { runtime } from '@cwdkit/core';
import { checks } from './checks/index.js';
import { runConformance, summarize } from './runner.js';

const usage = 'usage: cwdkit-conformance <strategy module> [--options <json>] [--only <check title>]...';
const help = `${usage}

Runs the cwdkit conformance suite on a strategy module (a package name or a file:// URL) under this runtime.
  --options <json>   handed to the strategy's create()
  --only <title>     run only this check (repeatable); titles are listed by --list
  --list             print every check title, in order
  --version          print the version
  --help             print this help
Exit codes: 0 passed, 1 a check failed, 2 bad arguments.
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

/** The closest of `candidates` to `word` by edit distance, if it is close enough to be a typo. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) {
        next[j] = Math.min(
          (row[j] as number) + 1,
          (next[j - 1] as number) + 1,
          (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
      }
      row = next;
    }
    return row[b.length] as number;
  };
  const best = candidates
    .map((candidate) => ({ candidate, d: distance(word, candidate) }))
    .sort((a, b) => a.d - b.d)[0];
  return best && best.d <= Math.max(2, Math.floor(word.length / 3)) ? best.candidate : undefined;
}

const flags = ['--options', '--only', '--list', '--version', '--help'];

let parsed: ReturnType<
  typeof parseArgs<{
    options: {
      options: { type: 'string' };
      only: { type: 'string'; multiple: true };
      list: { type: 'boolean' };
      version: { type: 'boolean' };
      help: { type: 'boolean' };
    };
    allowPositionals: true;
  }>
>;
try {
  parsed = parseArgs({
    args: process.argv.slice(2),
    options: {
      options: { type: 'string' },
      only: { type: 'string', multiple: true },
      list: { type: 'boolean' },
      version: { type: 'boolean' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
  });
} catch (error) {
  const unknown = /Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
  const suggestion = unknown && closest(unknown, flags);
  fail(`${(error as Error).message}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`);
}
if (parsed.values.help) {
  process.stdout.write(help);
  process.exit(0);
}
if (parsed.values.version) {
  const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  process.stdout.write(`${manifest.version}\n`);
  process.exit(0);
}
if (parsed.values.list) {
  for (const check of checks) process.stdout.write(`${check.title}\n`);
  process.exit(0);
}
for (const title of parsed.values.only ?? []) {
  if (checks.some((check) => check.title === title)) continue;
  const suggestion = closest(
    title,
    checks.map((check) => check.title),
  );
  fail(`ERR_CWDKIT_UNKNOWN_CHECK: No such check: ${title}${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`);
}
const [module, ...extra] = parsed.positionals;
if (!module || extra.length > 0) fail('expected exactly one strategy module');
let options: unknown;
try {
  options = parsed.values.options === undefined ? undefined : (JSON.parse(parsed.values.options) ?? undefined);
} catch (error) {
  fail(`--options is not JSON: ${(error as Error).message}`);
}

process.stdout.write(`# cwdkit conformance: ${module} on ${runtime} ${process.versions[runtime] ?? ''}\n`);
const results = await runConformance({
  module,
  options,
  only: parsed.values.only,
  onResult(result) {
    const mark = { passed: 'ok', failed: 'not ok', skipped: 'skip' }[result.status];
    const detail = result.detail
      ? result.status === 'failed'
        ? `\n  ${result.detail.replaceAll('\n', '\n  ')}`
        : ` (${result.detail})`
      : '';
    process.stdout.write(`${mark} - ${result.title}${detail}\n`);
  },
}).catch((error: Error & { code?: string }) => fail(`${error.code ?? 'ERROR'}: ${error.message}`));
process.stdout.write(`${summarize(results)}\n`);
process.exitCode = results.some((result) => result.status === 'failed') ? 1 : 0;
