import process from 'node:process';
import { type LoadedStrategy, type ScenarioResult, scenarios, timerResolutionNs } from '@cwdkit/benchmarks';
import { type CwdCapabilities, runtime, type StrategyDefinition } from '@cwdkit/core';

/** What the orchestrator asks one child process to measure. */
export interface ChildSpec {
  readonly scenario: string;
  readonly strategy: string;
  /** The URL of the module that declares it (from strategyModule()): the child and its workers import this. */
  readonly module: string;
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
  const timer = timerResolutionNs();
  const context = { reverse: spec.reverse, minCpuTimeMs: spec.minCpuTimeMs, workers: spec.workers };
  if (scenario.coldMainThread) {
    // This thread must never load the strategy: the scenario gets its name only, and reports the capabilities.
    const strategy = {
      name: spec.strategy,
      url: spec.module,
      get definition(): never {
        throw new Error(`${scenario.name} must not load the strategy on the main thread`);
      },
      module: {},
    } as LoadedStrategy;
    const result = await scenario.run({ strategy, ...context });
    if (!result.capabilities) throw new Error(`${scenario.name} reported no capabilities`);
    return print({ ...result, capabilities: result.capabilities }, timer);
  }
  const module = (await import(spec.module)) as Record<string, unknown>;
  const strategy: LoadedStrategy = {
    name: spec.strategy,
    url: spec.module,
    definition: module.default as StrategyDefinition<unknown>,
    module,
  };
  const probe = strategy.definition.create();
  const capabilities = probe.capabilities;
  probe.close();
  const result = await scenario.run({ strategy, ...context });
  print({ ...result, capabilities }, timer);
}

function print(result: ScenarioResult & { capabilities: CwdCapabilities }, timer: number): void {
  const output: ChildResult = {
    ...result,
    runtime: { name: runtime, version: runtimeVersion() },
    timerResolutionNs: timer,
  };
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(output)}\n`);
}
