export { type Check, CheckSkipped, checks } from './checks.js';
export { CheckContext } from './context.js';
export {
  type CheckResult,
  type ConformanceRun,
  capabilitiesOf,
  loadStrategy,
  runCheck,
  runConformance,
  summarize,
} from './runner.js';
export { findRuntime, type OtherRuntime, runtimeCommand } from './runtimes.js';
export { measureStaleReads, RUNTIME, type StaleReadOptions, type StaleReadResult } from './stale-reads.js';
export { WorkerClient } from './worker-client.js';
