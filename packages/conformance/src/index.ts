export { type Check, CheckSkipped, checks, features } from './checks/index.js';
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
export { findRuntime, OTHER_RUNTIMES, type OtherRuntime, runtimeCommand } from './runtimes.js';
export { measureStaleReads, RUNTIME, type StaleReadOptions, type StaleReadResult } from './stale-reads.js';
export { WorkerClient } from './worker-client.js';
