import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CheckSkipped, checks } from './checks.js';
import { capabilitiesOf, loadStrategy, runCheck } from './runner.js';
import { findRuntime, type OtherRuntime, runtimeCommand } from './runtimes.js';

export interface DescribeOptions {
  /** Handed to the strategy's create(). */
  options?: unknown;
  /** Also run the whole suite under these runtimes (their npm packages must be installed). Default: both. */
  runtimes?: readonly OtherRuntime[];
}

function run(command: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0] as string, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/**
 * The conformance suite as vitest tests. `module` is the strategy's module specifier (a package name or an absolute
 * file URL): the suite imports it here and inside real worker threads, so it must be built JavaScript.
 * Checks that the provider's capabilities rule out are skipped, with the reason in their title.
 */
export function describeCwdStrategy(module: string, settings: DescribeOptions = {}): void {
  const { options, runtimes = ['bun', 'deno'] } = settings;
  const label = options === undefined ? module : `${module} ${JSON.stringify(options)}`;
  describe(`conformance: ${label}`, async () => {
    const strategy = await loadStrategy(module);
    const capabilities = capabilitiesOf(strategy, options);
    for (const check of checks) {
      const reason = check.skip?.(capabilities);
      it.skipIf(reason !== undefined)(
        reason === undefined ? check.title : `${check.title} [${reason}]`,
        async (test) => {
          try {
            await runCheck(module, options, strategy, check);
          } catch (error) {
            if (!(error instanceof CheckSkipped)) throw error;
            test.skip(error.message);
          }
        },
      );
    }
    const cli = fileURLToPath(new URL('./cli.js', import.meta.url));
    for (const name of runtimes) {
      const binary = findRuntime(name);
      it.skipIf(binary === undefined)(
        binary ? `passes under ${name}` : `passes under ${name} [the ${name} npm package is not installed]`,
        async () => {
          const command = [
            ...runtimeCommand(name, binary as string, cli),
            module,
            '--options',
            JSON.stringify(options ?? null),
          ];
          const { status, output } = await run(command);
          expect(output, output).toMatch(/^[1-9]\d* passed, 0 failed, \d+ skipped$/m); // a run where nothing passed is no pass
          expect(status, output).toBe(0);
        },
        300_000,
      );
    }
  });
}
