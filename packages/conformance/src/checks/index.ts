// The suite's table of contents: one file per feature, in the order of the README's table. Each check gates itself on
// the provider's declared capabilities (its `skip`), never on suite options.
import { chdirChecks } from './chdir.js';
import { chdirErrorsChecks } from './chdir-errors.js';
import { closeChecks } from './close.js';
import { deletedCwdChecks } from './deleted-cwd.js';
import { differentialChecks } from './differential.js';
import { externalChangeChecks } from './external-change.js';
import { moduleCopiesChecks } from './module-copies.js';
import { readChecks } from './read.js';
import { runtimeCoherenceChecks } from './runtime-coherence.js';
import type { Check } from './support.js';
import { workersChecks } from './workers.js';

export { CHILD_ENV } from './chdir-errors.js';
export { type Check, CheckSkipped } from './support.js';

/** The features, in order: each a name and its checks. */
export const features: readonly { readonly feature: string; readonly checks: readonly Check[] }[] = [
  { feature: 'read', checks: readChecks },
  { feature: 'chdir', checks: chdirChecks },
  { feature: 'chdir errors', checks: chdirErrorsChecks },
  { feature: 'deleted cwd', checks: deletedCwdChecks },
  { feature: 'external change', checks: externalChangeChecks },
  { feature: 'close', checks: closeChecks },
  { feature: 'workers', checks: workersChecks },
  { feature: 'module copies', checks: moduleCopiesChecks },
  { feature: 'runtime coherence', checks: runtimeCoherenceChecks },
  { feature: 'differential', checks: differentialChecks },
];

/** Every check, in the order above. */
export const checks: readonly Check[] = features.flatMap((entry) => entry.checks);
