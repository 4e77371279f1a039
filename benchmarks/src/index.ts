import type { Scenario } from './scenario.js';
import { chdirCwd } from './scenarios/chdir-cwd.js';
import { cwdHot } from './scenarios/cwd-hot.js';
import { coldWorker, workerHot, workerMiss } from './scenarios/in-worker.js';
import { installResolve } from './scenarios/install-resolve.js';
import { napiCall } from './scenarios/napi-call.js';
import { readFilePermission } from './scenarios/read-file-permission.js';
import { realPrograms } from './scenarios/real-programs.js';
import { resolve } from './scenarios/resolve.js';
import { startup } from './scenarios/startup.js';
import { threadCwdFs } from './scenarios/thread-cwd-fs.js';
import { threadCwdStart } from './scenarios/thread-cwd-start.js';
import { threadCwdWorker } from './scenarios/thread-cwd-worker.js';
import { vitestGenerated } from './scenarios/vitest-generated.js';
import { vitestThreads } from './scenarios/vitest-threads.js';
import { watchCpu } from './scenarios/watch-cpu.js';
import { workerAfterChdir, workerRead } from './scenarios/worker-read.js';

export { canFlatten, timerResolutionNs } from './measure.js';
export type * from './scenario.js';
export { programs, type RealProgram, realProgramScenario } from './scenarios/real-programs.js';
export { startupScenario } from './scenarios/startup.js';
export { threadCwdFsScenario } from './scenarios/thread-cwd-fs.js';
export { threadCwdStartScenario } from './scenarios/thread-cwd-start.js';
export { combineReaders, type ReaderReport } from './scenarios/worker-read.js';
export { isStaleAfterChdir, isStaleRead } from './stale.js';

/** Every scenario, in the order the report shows them. */
export const scenarios: readonly Scenario[] = [
  cwdHot,
  chdirCwd,
  resolve,
  installResolve,
  workerHot,
  workerMiss,
  workerAfterChdir,
  coldWorker,
  workerRead,
  threadCwdWorker,
  threadCwdFs,
  threadCwdStart,
  readFilePermission,
  napiCall,
  watchCpu,
  startup,
  ...realPrograms,
  vitestThreads,
  vitestGenerated,
];
