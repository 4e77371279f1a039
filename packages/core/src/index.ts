export type { CwdCapabilities, CwdProvider, StrategyDefinition } from './contract.js';
export { installHook, SPEC_VERSION } from './contract.js';
export type { ChdirError, CwdkitErrorCode } from './errors.js';
export { chdirError, checkDirectory, codedError, cwdError, hasCode } from './errors.js';
export type { ProviderParts } from './provider.js';
export { buildProvider, checkOptions, defineStrategy, didYouMean, isClosed } from './provider.js';
export { type ResolverOptions, resolveFrom, resolverFor } from './resolve.js';
export type { RuntimeName } from './runtime.js';
export {
  chdirThroughRuntime,
  checkCwdName,
  coldWorkerCwd,
  cwdAfterChdir,
  deferSharedMemory,
  isMainThread,
  originals,
  osChdir,
  readOsCwd,
  refuseWorkerChdir,
  runtime,
  runtimeCwd,
  runtimeWorkerCwdCoherent,
  sharedMemoryTiming,
  tooLongForOs,
} from './runtime.js';
export { sharedMemory, syncBuiltinExports, threadSlots, threadState } from './shared.js';
