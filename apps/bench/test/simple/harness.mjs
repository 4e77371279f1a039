// The simple harness the engine is checked against: one case per process, a hand-written loop per row (no shared
// source, no unrolling), every result consumed, the ratio of two rows timed alternately inside this one process.
// Usage: node --allow-natives-syntax harness.mjs <main|worker|resolve> <strategy module URL>
//   → prints {"ratio": baseline time ÷ strategy time}; the URL is strategyModule(name) of src/strategies.ts
import path from 'node:path';
import process from 'node:process';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const [kind, strategy] = isMainThread ? process.argv.slice(2) : [workerData.kind, workerData.strategy];
const provider = (await import(strategy)).default.create();
const sink = { v: '', c: 0 };
// Both resolve rows return a rope (a V8 ConsString): flatten it, as a caller that uses the path pays for (and as the
// engine does). Needs --allow-natives-syntax.
const flatten = new Function('s', 'return %FlattenString(s)');

// One loop per row, written out: each its own call site.
const loops = {
  main: [
    (n) => {
      for (let i = 0; i < n; i++) {
        const v = process.cwd();
        sink.v = v;
        sink.c = v.charCodeAt(v.length - 1);
      }
    },
    (n) => {
      for (let i = 0; i < n; i++) {
        const v = provider.cwd();
        sink.v = v;
        sink.c = v.charCodeAt(v.length - 1);
      }
    },
  ],
  resolve: [
    (n) => {
      for (let i = 0; i < n; i++) {
        const v = flatten(path.resolve('src', 'index.ts'));
        sink.v = v;
        sink.c = v.charCodeAt(v.length - 1);
      }
    },
    (n) => {
      for (let i = 0; i < n; i++) {
        const v = flatten(provider.resolve('src', 'index.ts'));
        sink.v = v;
        sink.c = v.charCodeAt(v.length - 1);
      }
    },
  ],
};
loops.worker = loops.main; // the same two loops, run inside a worker

/** The median over alternating pairs of (baseline time ÷ strategy time). */
function ratio([baseline, subject]) {
  const time = (loop, n) => {
    const start = process.hrtime.bigint();
    loop(n);
    return Number(process.hrtime.bigint() - start);
  };
  // Warm: the optimizing tier.
  for (let i = 0; i < 20; i++) {
    time(baseline, 5000);
    time(subject, 5000);
  }
  let n = 1000;
  while (time(subject, n) < 2e6 && time(baseline, n) < 2e6) n *= 2; // blocks of a few ms
  const ratios = [];
  const bs = [],
    ss = [];
  for (let pair = 0; pair < 41; pair++) {
    const first = pair % 2 === 0;
    const a = first ? time(baseline, n) : 0;
    const b = time(subject, n);
    const c = first ? a : time(baseline, n);
    ratios.push(c / b);
    bs.push(c / n);
    ss.push(b / n);
  }
  const mid = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1];
  globalThis.__ns = { baselineNs: mid(bs), subjectNs: mid(ss) };
  return ratios.sort((x, y) => x - y)[ratios.length >> 1];
}

if (isMainThread && kind === 'worker') {
  // The main thread created its provider first: the worker finds the strategy's shared memory (trap 3).
  const worker = new Worker(new URL(import.meta.url), { workerData: { kind, strategy } });
  const [result] = await Promise.all([new Promise((resolve) => worker.once('message', resolve))]);
  await worker.terminate();
  console.log(JSON.stringify(result));
} else {
  const result = { ratio: ratio(loops[kind]), ...globalThis.__ns };
  if (isMainThread) console.log(JSON.stringify(result));
  else parentPort.postMessage(result);
}
provider.close?.();
