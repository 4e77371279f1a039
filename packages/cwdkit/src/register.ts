// `node --import cwdkit/register`, `bun --preload cwdkit/register`, `deno run --preload npm:cwdkit/register`:
// selects the strategy from configuration (CWDKIT_STRATEGY, then cwdkit.config.json …) and installs it before the app
// starts. A failure stops the program with one line: the selection's error. On the main thread the strategy's shared
// memory, which every worker the app starts later (from any pool) finds, is created at once on Bun and Node 20/22, and
// on first need on Node 24.15+ and Deno, whose own worker cwd is coherent (see core's sharedMemoryTiming).
//
// Built as CommonJS only, for every condition: a preload pays for each module it loads, and Node builds the namespace
// of an ESM `import fs from 'node:fs'` (or 'node:process') by loading everything behind their lazy getters (streams,
// readline, fs/promises, the report): ~7 ms of a ~21 ms start. `require` returns the object as it is.
import { deferSharedMemory } from '@cwdkit/core';
import { install, installed } from './install.js';
import { createCwdProviderSync } from './select.js';

const firstLine = (text: string) => (text.split('\n')[0] ?? '').trim();

/**
 * The selection's error as one sentence: which strategy, why, what to do. A failed preference list lists what each
 * entry met on one line instead of an AggregateError's stacks.
 */
function sentence(error: unknown): string {
  const { message = String(error), code } = (error ?? {}) as { message?: string; code?: unknown };
  const suffix = typeof code === 'string' ? ` [${code}]` : '';
  if (code !== 'ERR_CWDKIT_NO_STRATEGY') return `${firstLine(message)}${suffix}`;
  const [head = '', ...entries] = message.split('\n  - ');
  const missing: string[] = [];
  const failed: string[] = [];
  let advice: string | undefined;
  for (const entry of entries) {
    const [, name = '', reason = ''] = /^([^:]*): (.*)$/s.exec(entry) ?? [];
    const install = /is not installed: (.*)$/.exec(firstLine(reason));
    if (install) {
      missing.push(name);
      advice ??= install[1];
    } else failed.push(`${name} (${firstLine(reason).replace(/\.$/, '')})`);
  }
  const parts = [
    ...(failed.length ? [`${failed.join(', ')} failed to load`] : []),
    ...(missing.length ? [`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed`] : []),
  ];
  return `${head.replace(/:$/, '')}: ${parts.join('; ')}${advice ? `; install one: ${advice}` : ''}${suffix}`;
}

try {
  deferSharedMemory();
  if (installed() === undefined) install(createCwdProviderSync());
} catch (error) {
  console.error(`cwdkit/register: ${sentence(error)}`);
  process.exit(1);
}
