// A fresh Bun worker's start, to its first message: with thread-cwd's setup entry preloaded, against an empty preload.
import { Worker } from 'node:worker_threads';
const setup = process.argv[2];
const empty = new URL('./empty.cjs', import.meta.url).pathname;
const once = (preload) => new Promise((resolve) => {
  const t = performance.now();
  const w = new Worker('require("worker_threads").parentPort.postMessage(0)', { eval: true, preload: [preload] });
  w.once('message', () => { const ms = performance.now() - t; w.terminate().then(() => resolve(ms)); });
});
await once(setup); await once(empty);
const diffs = [], sets = [], empties = [];
for (let i = 0; i < 20; i++) {
  const [a, b] = i % 2 ? [await once(setup), await once(empty)] : [0, 0];
  const [c, d] = i % 2 ? [0, 0] : [await once(empty), await once(setup)];
  const s = a || d, e = b || c; sets.push(s); empties.push(e); diffs.push(s - e);
}
const med = (x) => [...x].sort((p, q) => p - q)[x.length >> 1];
console.log(JSON.stringify({ setupMs: +med(sets).toFixed(2), emptyMs: +med(empties).toFixed(2), extraMs: +med(diffs).toFixed(2) }));
