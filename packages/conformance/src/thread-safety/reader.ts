// A worker for the thread-safety scripts: answers each 'cwd' request with its cwd() (and whether it found the
// strategy's shared memory); or, with `loop`, reads for ever once `go` is set.
import { getEnvironmentData, parentPort, workerData } from 'node:worker_threads';
import type { StrategyDefinition } from '@cwdkit/core';

export interface ReaderData {
  module: string;
  /** The strategy's sharedMemory key: the answer says whether this worker found the buffer. */
  key?: string;
  loop?: boolean;
  go?: SharedArrayBuffer;
}
export interface Answer {
  cwd?: string;
  shared?: boolean;
  /** The provider's capabilities.cold: whether it says this thread is cold (found no shared memory). */
  cold?: boolean;
  error?: string;
}

const port = parentPort;
if (!port) throw new Error('@cwdkit/conformance: reader.js runs only as a worker thread');
const { module, key, loop, go } = workerData as ReaderData;
const provider = ((await import(module)) as { default: StrategyDefinition<unknown> }).default.create();
const shared = key === undefined ? undefined : getEnvironmentData(`cwdkit:${key}`) instanceof SharedArrayBuffer;
if (loop && go) {
  port.postMessage('ready');
  Atomics.wait(new Int32Array(go), 0, 0); // not spinning yet: the other workers of the batch are still starting
  // The main thread chdirs all along, so reads keep taking the miss path, the one that reads shared memory.
  for (;;) provider.cwd();
}
const { cold } = provider.capabilities;
port.on('message', (request: 'cwd' | 'invalidate') => {
  let answer: Answer;
  try {
    if (request === 'invalidate') provider.invalidate();
    answer = { cwd: provider.cwd(), shared, cold };
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    answer = { error: `${code}: ${message}`, shared, cold };
  }
  port.postMessage(answer);
});
port.postMessage('ready');
