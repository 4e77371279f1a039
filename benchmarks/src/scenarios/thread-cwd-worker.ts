import type { Scenario } from '../scenario.js';
import { FILE, measureInWorkers } from './thread-cwd.js';

/** Strategies whose installed process.cwd() in a worker is the fair baseline of thread-cwd's (the same property load). */
export const OTHERS = ['sab-atomics', 'main-thread-cache'] as const;

export const threadCwdWorker: Scenario = {
  name: 'thread-cwd-worker',
  description:
    "cwd() and the installed process.cwd() in a worker that chdir'd with thread-cwd, against a real mutable cache, and process.cwd() in workers without cwdkit or with sab-atomics or main-thread-cache installed (Node on Linux)",
  claim: "issue #22: cwd() in a chdir'd worker costs at most 1.5× the mutable-cache row",
  strategies: ['thread-cwd'],
  goal: { rows: ['provider', 'process-cwd'], against: 'mutable-cache', atMost: 1.5 },
  // The mutable cache is a direct call; process.cwd() also loads `cwd` from `process`. What thread-cwd itself costs
  // is its installed process.cwd() against the same call in a worker without cwdkit and with another cache installed.
  compare: [
    {
      rows: ['process-cwd'],
      against: 'bare-process-cwd',
    },
    ...OTHERS.map((name) => ({ rows: ['process-cwd'], against: `${name}-process-cwd` })),
    { rows: ['process-cwd-taken'], against: 'provider' },
  ],
  run(context) {
    return measureInWorkers(
      context,
      [
        ['chdir', 'baseline'],
        ['chdir', 'mutable-cache'],
        ['chdir', 'provider'],
        ['chdir', 'process-cwd'],
        ['chdir', 'process-cwd-taken'],
        ['plain', 'bare-process-cwd'],
        ...OTHERS.map((name) => [{ other: name }, `${name}-process-cwd`] as const),
        ['chdir', 'control'],
      ],
      FILE,
    );
  },
};
