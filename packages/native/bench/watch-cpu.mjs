// CPU cost of a watch-mode thread: its own on-CPU time (Linux /proc/<pid>/task/<tid>/schedstat, in ns) while the
// process idles. Usage: npm run bench:watch -w @cwdkit/native   [seconds per interval, default 10]
import fs from 'node:fs';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { createProvider } from '../dist/index.js';

const seconds = Number(process.argv[2] ?? 10);
const tasks = () => new Set(fs.readdirSync('/proc/self/task'));
const onCpuNs = (tid) => Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);

console.log(`Node ${process.version}, ${seconds} s per interval, the process otherwise idle`);
console.log('| intervalMs | polls/s | thread CPU | % of one core |');
console.log('|---:|---:|---:|---:|');
for (const intervalMs of [1, 10, 20, 100]) {
  const before = tasks();
  const provider = createProvider({ mode: 'watch', intervalMs });
  const [tid] = [...tasks()].filter((task) => !before.has(task));
  const start = onCpuNs(tid);
  const started = process.hrtime.bigint();
  await sleep(seconds * 1000);
  const used = onCpuNs(tid) - start;
  const elapsed = Number(process.hrtime.bigint() - started);
  provider.close();
  const percent = (100 * used) / elapsed;
  console.log(
    `| ${intervalMs}${intervalMs === 20 ? ' (default)' : ''} | ${1000 / intervalMs} | ${(used / 1e6).toFixed(1)} ms | ${percent.toFixed(3)}% |`,
  );
}
