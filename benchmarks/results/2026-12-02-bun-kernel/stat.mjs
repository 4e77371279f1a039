// In a Bun worker after thread-cwd's chdir: relative statSync vs absolute, alternating batches; first chdir cost.
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import fs from 'node:fs';
if (isMainThread) {
  const w = new Worker(new URL(import.meta.url));
  w.on('message', (m) => { console.log(JSON.stringify(m)); w.terminate(); });
} else {
  let t = performance.now();
  process.chdir('d');
  const first = performance.now() - t;
  t = performance.now(); process.chdir('..'); process.chdir('d'); const later = (performance.now() - t) / 2;
  const abs = fs.realpathSync.native('.') + '/f';
  const batch = (p) => { const s = performance.now(); for (let i = 0; i < 20000; i++) fs.statSync(p); return performance.now() - s; };
  batch('f'); batch(abs);
  const ratios = [];
  for (let r = 0; r < 15; r++) { const a = r % 2 ? batch('f') : 0, b = batch(abs), c = r % 2 ? 0 : batch('f'); ratios.push((a + c) / b); }
  ratios.sort((x, y) => x - y);
  parentPort.postMessage({ firstChdirMs: +first.toFixed(2), laterChdirMs: +later.toFixed(3), relOverAbs: { median: +ratios[7].toFixed(3), q1: +ratios[3].toFixed(3), q3: +ratios[11].toFixed(3) } });
}
