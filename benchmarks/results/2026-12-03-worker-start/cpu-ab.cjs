// A/B of the setup entry (require) and the first chdir: the worker's own CPU time (process.threadCpuUsage, mean of
// many: its readings lag by up to a tick, unbiased over many) and wall time (median), alternating builds per round.
const { Worker } = require('node:worker_threads');
const os = require('node:os');
const setups = process.argv.slice(3);
const rounds = Number(process.argv[2]);
const body = (setup) => `
const { parentPort } = require('node:worker_threads');
const cpu = () => { const u = process.threadCpuUsage(); return (u.user + u.system) / 1000; };
const c0 = cpu(), w0 = performance.now();
${setup === 'none' ? '' : `require(${JSON.stringify(setup)});`}
const c1 = cpu(), w1 = performance.now();
${setup === 'none' ? '' : `process.chdir(${JSON.stringify(os.tmpdir())});`}
const c2 = cpu(), w2 = performance.now();
parentPort.postMessage([c1 - c0, w1 - w0, c2 - c1, w2 - w1]);`;
(async () => {
  const seen = setups.map(() => [[], [], [], []]);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < setups.length; i++) {
      const k = (i + r) % setups.length;
      const w = new Worker(body(setups[k]), { eval: true });
      const m = await new Promise((res, rej) => { w.once('message', res); w.once('error', rej); });
      m.forEach((v, j) => seen[k][j].push(v));
      await w.terminate();
    }
  }
  const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
  const se = (a) => Math.sqrt(a.reduce((x, y) => x + (y - mean(a)) ** 2, 0) / (a.length - 1) / a.length);
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  setups.forEach((s, k) => {
    const [rc, rw, cc, cw] = seen[k];
    console.log(s.split('/').slice(2, 3)[0].padEnd(6), `entry cpu ${mean(rc).toFixed(2)}±${se(rc).toFixed(2)} wall ${med(rw).toFixed(2)} | first chdir cpu ${mean(cc).toFixed(2)}±${se(cc).toFixed(2)} wall ${med(cw).toFixed(2)}`);
  });
})();
