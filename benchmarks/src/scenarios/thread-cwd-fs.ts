import type { Scenario } from '../scenario.js';
import { FILE, measureInWorkers } from './thread-cwd.js';

/** The scenario, statting `relative` in the chdir'd worker (tests hand it a path that is slower on purpose). */
export function threadCwdFsScenario(relative = FILE): Scenario {
  return {
    name: 'thread-cwd-fs',
    description:
      "fs.statSync with a relative path in a worker that chdir'd with thread-cwd, against the same call with the absolute path; and the absolute call in a worker that installed it but never chdir'd, against a worker without it (Node on Linux)",
    claim:
      "issue #22: a relative statSync in a chdir'd worker costs at most 5% over the absolute one; thread-cwd's README measured an installed, never chdir'd worker at +2% instructions, 1.02-1.06× the time",
    strategies: ['thread-cwd'],
    goal: { rows: ['relative'], against: 'absolute', atMost: 1.05 },
    run(context) {
      return measureInWorkers(
        context,
        [
          ['plain', 'baseline'],
          ['installed', 'installed'],
          ['chdir', 'absolute'],
          ['chdir', 'relative'],
          ['plain', 'control'],
        ],
        relative,
      );
    },
  };
}

export const threadCwdFs: Scenario = threadCwdFsScenario();
