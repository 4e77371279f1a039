import process from 'node:process';
import { type LoadedStrategy, type ScenarioResult, scenarios, timerResolutionNs } from '@cwdkit/benchmarks';
import { type CwdCapabilities, runtime, type StrategyDefinition } from '@cwdkit/core';

/** What the orchestrator asks one child process to measure. */
export interface ChildSpec {
  readonly scenario: string;
  readonly strategy: string;
  readonly reverse: boolean;
  readonly minCpuTimeMs: number;
  readonly workers: number;
}

export interface ChildResult extends ScenarioResult {
  readonly runtime: { readonly name: string; readonly version: string };
  readonly timerResolutionNs: number;
  /** The strategy's capabilities on this runtime: they may differ from Node's (naive on Deno is coherent). */
  readonly capabilities: CwdCapabilities;
}

/** The child prints one line that starts with this, so that anything else a strategy prints cannot confuse it. */
export const RESULT_MARKER = '@@cwdkit-bench-result ';

function runtimeVersion(): string {
  const globals = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } };
  return globals.Deno?.version.deno ?? globals.Bun?.version ?? process.versions.node;
}

/** Runs one (strategy, scenario) in this process and prints the result. */
export async function runChild(spec: ChildSpec): Promise<void> {
  const scenario = scenarios.find((candidate) => candidate.name === spec.scenario);
  if (!scenario) throw new Error(`unknown scenario ${spec.scenario}`);
  const module = (await import(`@cwdkit/${spec.strategy}`)) as Record<string, unknown>;
  const strategy: LoadedStrategy = {
    name: spec.strategy,
    definition: module.default as StrategyDefinition<unknown>,
    module,
  };
  const probe = strategy.definition.create();
  const capabilities = probe.capabilities;
  probe.close();
  const timer = timerResolutionNs();
  const result = await scenario.run({
    strategy,
    reverse: spec.reverse,
    minCpuTimeMs: spec.minCpuTimeMs,
    workers: spec.workers,
  });
  const output: ChildResult = {
    ...result,
    runtime: { name: runtime, version: runtimeVersion() },
    timerResolutionNs: timer,
    capabilities,
  };
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(output)}\n`);
}
