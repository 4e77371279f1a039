import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Check, RowResult, Scenario } from '../scenario.js';

/** The polling intervals measured, in ms (20 is the default). */
const INTERVALS = [1, 20, 100];

const tasks = () => new Set(fs.readdirSync('/proc/self/task'));
/** A thread's time on a CPU so far, in ns (Linux schedstat). */
const onCpuNs = (tid: string) => Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);

export const watchCpu: Scenario = {
  name: 'watch-cpu',
  // One process measures the three polling periods; 6 rounds of a few seconds each are enough for CPU per ms.
  rounds: 6,
  description: "the CPU the native watch mode's polling thread uses while the process idles, per interval (Linux)",
  claim: "@cwdkit/native's README: the default 20 ms watch costs a negligible share of one core",
  strategies: ['native'],
  async run(context) {
    if (!fs.existsSync('/proc/self/task')) {
      return { rows: [], checks: [{ name: 'watch-cpu needs /proc (Linux)', ok: true, detail: 'not measured here' }] };
    }
    // The interval's share of the time budget: 40 × a row's min_cpu_time (0.4 s quick, 1.4 s full).
    const ms = 40 * context.minCpuTimeMs;
    const rows: RowResult[] = [];
    const checks: Check[] = [];
    for (const intervalMs of context.reverse ? [...INTERVALS].reverse() : INTERVALS) {
      const before = tasks();
      const provider = context.strategy.definition.create({ mode: 'watch', intervalMs });
      const [tid] = [...tasks()].filter((task) => !before.has(task));
      try {
        checks.push({ name: `watch (${intervalMs} ms) started a thread`, ok: tid !== undefined });
        if (tid === undefined) continue;
        const start = onCpuNs(tid);
        const started = performance.now();
        await sleep(ms);
        const used = onCpuNs(tid) - start;
        // ns of the thread's CPU per ms of wall time: 1,000,000 would be one whole core.
        const perMs = used / (performance.now() - started);
        const stats = { p50: perMs, min: perMs, p99: perMs, avg: perMs, samples: 1, opsPerSample: 1 };
        rows.push({
          key: `watch-${intervalMs}`,
          label: `CPU ns per ms, polling every ${intervalMs} ms`,
          role: 'subject',
          stats,
        });
      } finally {
        provider.close();
      }
    }
    return { rows, checks };
  },
};
