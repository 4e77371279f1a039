// The one test harness of the project, for the suite, the strategies' own tests and the bench: one worker protocol
// (WorkerClient), one stale-read judge, one way to spawn a runtime, one scratch-directory helper.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { findRuntime, type OtherRuntime, runtimeCommand } from './runtimes.js';

export { findRuntime, OTHER_RUNTIMES, type OtherRuntime, runtimeCommand } from './runtimes.js';
export { scratchDirectories } from './thread-safety/scratch.js';
export { WorkerClient } from './worker-client.js';

/**
 * Where this process started: children start there, and runtimes are found from there, never from a scratch
 * directory a test may have moved to or deleted.
 */
const home = process.cwd();

export type Judgement = 'fresh' | 'stale' | 'cannot tell';

/**
 * The publish-after-chdir rule, the same in the suite and the bench. The main thread changes to dirs[g % dirs.length]
 * and only then publishes g; a reader loads the published generation before (`before`) and after (`after`) its read.
 * During the read the cwd was one of dirs[before .. after + 1] (the +1: a chdir that returned but is not yet
 * published). A read that is none of them is stale; when that window covers (almost) the whole ring, a read in the
 * ring cannot be told from a fresh one.
 */
export function judgeRead(read: string, before: number, after: number, dirs: readonly string[]): Judgement {
  if (after + 1 - before >= dirs.length - 1) return dirs.includes(read) ? 'cannot tell' : 'stale';
  for (let generation = before; generation <= after + 1; generation++) {
    if (dirs[generation % dirs.length] === read) return 'fresh';
  }
  return 'stale';
}

export interface Spawned {
  status: number | null;
  /** stdout and stderr, interleaved as they came. */
  output: string;
}

/**
 * Runs `script` with `args` under `runtime` ('node' is this process's own binary) and collects its output. The child
 * starts in the directory this process started in, and is killed at `timeoutMs` (rejecting with its output so far).
 */
export function spawnRuntime(
  runtime: 'node' | OtherRuntime,
  script: string,
  args: readonly string[],
  { timeoutMs = 240_000, env }: { timeoutMs?: number; env?: Readonly<Record<string, string | undefined>> } = {},
): Promise<Spawned> {
  const binary = runtime === 'node' ? process.execPath : findRuntime(runtime, home);
  if (!binary) return Promise.reject(new Error(`the ${runtime} npm package is not installed`));
  const [command, ...rest] = runtime === 'node' ? [binary, script] : runtimeCommand(runtime, binary, script);
  return new Promise((resolve, reject) => {
    const child = spawn(command as string, [...rest, ...args], {
      cwd: home,
      env: env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${runtime} ${script} did not exit within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}
