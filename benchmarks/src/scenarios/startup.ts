import fs from 'node:fs';
import path from 'node:path';
import { runtime } from '@cwdkit/core';
import { tempDirs } from '../fixtures.js';
import { same } from '../measure.js';
import type { Check, Scenario } from '../scenario.js';
import { cleanEnv, installedBy, launch, measureProcesses, type ProcessRow, REGISTER } from './processes.js';

/** The preload flag as users type it on this runtime. */
const FLAG = runtime === 'deno' ? 'deno run --preload' : runtime === 'bun' ? 'bun --preload' : 'node --import';

/** The scenario, preloading `register` as the flag (tests hand it a fixture that is slower on purpose). */
export function startupScenario(register: string = REGISTER): Scenario {
  return {
    name: 'startup',
    description:
      'start-up of an empty script with cwdkit/register preloaded (--import on Node, --preload on Bun and Deno), against an empty module preloaded the same way; one process per run, wall time and peak RSS',
    claim: 'issue #21: the one flag adds at most 2 ms and 2 MiB to start-up over an empty preload',
    target: { extraMs: 2, extraMiB: 2 },
    // Six strategies, a few dozen processes a job: 5 runs a row fit a recording's time, re-runs would not.
    aaRetries: 0,
    async run(context) {
      const quick = context.minCpuTimeMs < 20;
      const { root, remove } = tempDirs(0);
      try {
        // Two projects (a package.json each, so the config search stops there), each with its own empty script and empty
        // module: one without configuration, one whose cwdkit.config.json names the strategy of this job. (Deno resolves
        // the preload's imports only for a main module inside a project: one outside both fails "not a dependency".)
        const plain = path.join(root, 'plain');
        const configured = path.join(root, 'configured');
        for (const dir of [plain, configured]) {
          fs.mkdirSync(dir);
          fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
          fs.writeFileSync(path.join(dir, 'empty.mjs'), '');
          fs.writeFileSync(path.join(dir, 'empty-preload.mjs'), '');
        }
        fs.writeFileSync(
          path.join(configured, 'cwdkit.config.json'),
          `${JSON.stringify({ strategy: context.strategy.name })}\n`,
        );
        const script = (dir: string) => path.join(dir, 'empty.mjs');
        const env = cleanEnv();
        const said = (cwd: string) =>
          installedBy(path.join(cwd, 'probe.mjs'), (probe) => launch(probe, [], register, env), cwd);
        // The preload really installs the configured strategy; without a file it installs the default list's first.
        const checks: Check[] = [
          same('cwdkit.config.json selects the strategy', said(configured), context.strategy.name),
        ];
        const byDefault = said(plain);
        const empty = launch(script(plain), [], path.join(plain, 'empty-preload.mjs'), env);
        const flagged = (dir: string) => launch(script(dir), [], register, env);
        const rows: ProcessRow[] = [
          {
            key: 'baseline',
            label: `empty script, an empty module preloaded (${FLAG})`,
            role: 'baseline',
            command: empty,
            cwd: plain,
          },
          {
            key: 'provider',
            label: 'cwdkit/register, cwdkit.config.json names it',
            role: 'subject',
            command: flagged(configured),
            cwd: configured,
          },
          // The same install with no configuration at all: measured by the job of the strategy the default list picks.
          ...(byDefault === context.strategy.name
            ? [
                {
                  key: 'no-config',
                  label: 'cwdkit/register, no config file (the default list picks it)',
                  role: 'subject' as const,
                  command: flagged(plain),
                  cwd: plain,
                },
              ]
            : []),
          { key: 'control', label: 'empty module preloaded (A/A)', role: 'control', command: empty, cwd: plain },
        ];
        const results = measureProcesses(rows, {
          // Quick (CI, every runtime, every strategy): one run a row and one under GNU time, no warm-up run.
          runs: quick ? 1 : 5,
          rssRuns: quick ? 1 : 2,
          warmUp: !quick,
          reverse: context.reverse,
        });
        return { rows: results, checks };
      } finally {
        remove();
      }
    },
  };
}

export const startup: Scenario = startupScenario();
