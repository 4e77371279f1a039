// One reader of measureStaleReads: reads the cwd in a loop, each read bracketed by two loads of the generation.
import { parentPort, workerData } from 'node:worker_threads';
import { runtimeCwd, type StrategyDefinition } from '@cwdkit/core';
import { judgeRead } from './harness.js';
import { RUNTIME, Slot } from './stale-reads.js';

const {
  module,
  options,
  dirs,
  control: buffer,
} = workerData as {
  module: string;
  options: unknown;
  dirs: string[];
  control: SharedArrayBuffer;
};
const control = new Int32Array(buffer);
const read =
  module === RUNTIME
    ? runtimeCwd
    : (((await import(module)) as { default: StrategyDefinition<unknown> }).default.create(options)
        .cwd as () => string);

let reads = 0;
let checked = 0;
let stale = 0;
const examples: { value: string; from: number; to: number }[] = [];
Atomics.add(control, Slot.Ready, 1);
let seen = -1;
try {
  while (Atomics.load(control, Slot.Stop) === 0) {
    const from = Atomics.load(control, Slot.Published);
    const value = read();
    const to = Atomics.load(control, Slot.Published);
    reads++;
    if (from !== seen) {
      seen = from;
      Atomics.store(control, Slot.Seen, seen); // a paused storm waits for this before its next chdir
    }
    if ((reads & 1023) === 0) Atomics.add(control, Slot.Reads, 1024);
    const judgement = judgeRead(value, from, to, dirs);
    if (judgement === 'cannot tell') continue;
    checked++;
    if (judgement === 'stale') {
      stale++;
      if (examples.length < 5) examples.push({ value, from, to });
    }
  }
} finally {
  Atomics.add(control, Slot.Gone, 1); // a paused storm stops waiting for readers
}
parentPort?.postMessage({ reads, checked, stale, examples });
