export type { CwdCapabilities, CwdProvider, StrategyDefinition } from '@cwdkit/core';
export type { CwdkitConfig, StrategyModule, StrategyRequest } from './config.js';
export { install, installed } from './install.js';
export type { SelectionSource, StrategySelection } from './select.js';
export {
  createCwdProvider,
  createCwdProviderSync,
  DEFAULT_STRATEGIES,
  describeSource,
  STRATEGY_VARIABLE,
  selectStrategy,
  selectStrategySync,
} from './select.js';
export type { DeclaredStrategy } from './strategies.js';
export { declaredStrategies, isExplicitPath, packageEntry, strategyFolders } from './strategies.js';
