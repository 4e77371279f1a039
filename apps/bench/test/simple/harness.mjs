// The simple harness the engine is checked against: one case per process, a hand-written loop per row (no shared
// source, no unrolling), every result consumed, the ratio of two rows timed alternately inside this one process.
// Usage: node --allow-natives-syntax harness.mjs <main|worker|resolve> <strategy module URL>
//   → prints {"ratio": baseline time ÷ strategy time, "baselineNs", "subjectNs"} (medians, ns per call); the URL
//   is strategyModule(name) of src/strategies.ts
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

/** A block's wall time, ns. */
function time(loop, n) {
  const start = process.hrtime.bigint();
  loop(n);
  return Number(process.hrtime.bigint() - start);
}

/**
 * Blocks this long, and as long for both rows: a block that holds a switch to another process counts that process's
 * slice (CPU time is no help here: this VM's getrusage and schedstat move in ticks of milliseconds). Blocks of 2 ms,
 * the baseline's 2.5× the strategy's, were preempted more often than the strategy's on a busy machine, and cwd-hot read
 * 3.3-3.7× there against 2.6 on a quiet one; short blocks of equal length are seldom preempted, and then both alike.
 */
const BLOCK_NS = 250_000;
const PAIRS = 201;

/** The median over alternating pairs of (baseline time ÷ strategy time), per call. */
function ratio([baseline, subject]) {
  // Warm: the optimizing tier.
  for (let i = 0; i < 20; i++) {
    time(baseline, 5000);
    time(subject, 5000);
  }
  // Calls per block for each row: BLOCK_NS each, so that neither row's blocks are the longer ones.
  const calls = (loop) => {
    let n = 64;
    while (time(loop, n) < BLOCK_NS) n *= 2;
    return n;
  };
  const nBaseline = calls(baseline);
  const nSubject = calls(subject);
  const ratios = [];
  const bs = [];
  const ss = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    const first = pair % 2 === 0;
    const a = first ? time(baseline, nBaseline) / nBaseline : 0;
    const b = time(subject, nSubject) / nSubject;
    const c = first ? a : time(baseline, nBaseline) / nBaseline;
    ratios.push(c / b);
    bs.push(c);
    ss.push(b);
  }
  const middle = (values) => values.sort((x, y) => x - y)[values.length >> 1];
  return { ratio: middle(ratios), baselineNs: middle(bs), subjectNs: middle(ss) };
}

if (isMainThread && kind === 'worker') {
  // The main thread created its provider first: the worker finds the strategy's shared memory (trap 3).
  const worker = new Worker(new URL(import.meta.url), { workerData: { kind, strategy } });
  const [result] = await Promise.all([new Promise((resolve) => worker.once('message', resolve))]);
  await worker.terminate();
  console.log(JSON.stringify(result));
} else {
  const result = ratio(loops[kind]);
  if (isMainThread) console.log(JSON.stringify(result));
  else parentPort.postMessage(result);
}
provider.close?.();
