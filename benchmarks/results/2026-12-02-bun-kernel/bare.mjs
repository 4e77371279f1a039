import fs from 'node:fs';
process.chdir('d');
const abs = fs.realpathSync.native('.') + '/f';
const batch = (p) => { const s = performance.now(); for (let i = 0; i < 20000; i++) fs.statSync(p); return performance.now() - s; };
batch('f'); batch(abs);
const ratios = [];
for (let r = 0; r < 15; r++) { const a = r % 2 ? batch('f') : 0, b = batch(abs), c = r % 2 ? 0 : batch('f'); ratios.push((a + c) / b); }
ratios.sort((x, y) => x - y);
console.log(JSON.stringify({ bareMainThread: { median: +ratios[7].toFixed(3), q1: +ratios[3].toFixed(3), q3: +ratios[11].toFixed(3) } }));
