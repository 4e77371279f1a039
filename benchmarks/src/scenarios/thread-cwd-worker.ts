import type { Scenario } from '../scenario.js';
import { FILE, measureInWorkers } from './thread-cwd.js';

export const threadCwdWorker: Scenario = {
  name: 'thread-cwd-worker',
  description:
    "cwd() and the installed process.cwd() in a worker that chdir'd with thread-cwd, against a real mutable cache (Node on Linux)",
  claim: "issue #22: cwd() in a chdir'd worker costs at most 1.5× the mutable-cache row",
  strategies: ['thread-cwd'],
  goal: { rows: ['provider', 'process-cwd'], against: 'mutable-cache', atMost: 1.5 },
  run(context) {
    return measureInWorkers(
      context,
      [
        ['chdir', 'baseline'],
        ['chdir', 'mutable-cache'],
        ['chdir', 'provider'],
        ['chdir', 'process-cwd'],
        ['chdir', 'control'],
      ],
      FILE,
    );
  },
};
