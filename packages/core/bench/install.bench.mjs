// path.resolve('src', 'index.ts') before and after install(), in one run, on Node or Deno:
//   node bench/install.bench.mjs [strategy] [--reverse]
//   deno run -A bench/install.bench.mjs [strategy] [--reverse]
// The strategy package must be installed and built (default: main-thread-cache). --reverse runs the installed case first.
import path from 'node:path';
import process from 'node:process';
import { bench, do_not_optimize, run, summary } from 'mitata';
import { createCwdProvider, install, runtime } from '../dist/index.js';

const args = process.argv.slice(2);
const strategy = args.find((arg) => !arg.startsWith('--')) ?? 'main-thread-cache';
const provider = await createCwdProvider({ strategy });

const cases = [
  bench.bind(null, `${runtime}: path.resolve, runtime's own cwd`, () => {
    do_not_optimize(path.resolve('src', 'index.ts'));
  }),
  bench.bind(null, `${runtime}: path.resolve, install(${strategy})`, function* () {
    const uninstall = install(provider);
    yield () => do_not_optimize(path.resolve('src', 'index.ts'));
    uninstall();
  }),
];
summary(() => {
  for (const register of args.includes('--reverse') ? cases.reverse() : cases) register();
});
await run();
provider.close();
