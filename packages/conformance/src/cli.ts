#!/usr/bin/env node
// cwdkit-conformance <module> [--options <json>] [--only <title>]...: the suite outside vitest, on Node, Bun or Deno.
import process from 'node:process';
import { parseArgs } from 'node:util';
import { runtime } from '@cwdkit/core';
import { runConformance, summarize } from './runner.js';

const usage = 'usage: cwdkit-conformance <strategy module> [--options <json>] [--only <check title>]...';

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

let parsed: ReturnType<
  typeof parseArgs<{
    options: { options: { type: 'string' }; only: { type: 'string'; multiple: true } };
    allowPositionals: true;
  }>
>;
try {
  parsed = parseArgs({
    args: process.argv.slice(2),
    options: { options: { type: 'string' }, only: { type: 'string', multiple: true } },
    allowPositionals: true,
  });
} catch (error) {
  fail((error as Error).message);
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
