export type { CwdCapabilities, CwdProvider, StrategyDefinition, StrategyName } from './contract.js';
export { SPEC_VERSION, STRATEGY_NAMES } from './contract.js';
export type { ChdirError, CwdkitErrorCode } from './errors.js';
export { chdirError, checkDirectory, codedError, hasCode } from './errors.js';
export { install } from './install.js';
export type { ProviderParts } from './provider.js';
export { buildProvider, defineStrategy } from './provider.js';
export { resolveFrom } from './resolve.js';
export type { RuntimeName } from './runtime.js';
export {
  cwdAfterChdir,
  isMainThread,
  originals,
  osChdir,
  readOsCwd,
  refuseWorkerChdir,
  runtime,
  runtimeCwd,
} from './runtime.js';
export type { CwdkitConfig, SelectionSource, StrategySelection } from './select.js';
export {
  createCwdProvider,
  createCwdProviderSync,
  DEFAULT_STRATEGIES,
  describeSource,
  STRATEGY_VARIABLE,
  selectStrategy,
  selectStrategySync,
} from './select.js';
export { sharedMemory, threadState } from './shared.js';
