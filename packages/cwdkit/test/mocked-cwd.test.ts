// A test's fake of process.cwd (an assignment, vi.spyOn and its mockRestore(), a wrapper, a fake that answers once)
// keeps working with cwdkit installed: path.resolve answers as the runtime's own does (#29.1): on Node and Deno it
// follows whatever process.cwd is at the call, on Bun it reads its own cwd whatever the fake says. Each
// runtime runs the fixture bare, then with every strategy installed by install() and by the cwdkit/register flag
// (deferred to the first chdir; once with the fake put in place before that chdir), and every answer is compared.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { afterAll, describe, expect, it } from 'vitest';
import { dist, fixtures, packageRoot, run, scratchDir } from './helpers.js';

const bin = path.join(packageRoot, '../../node_modules/.bin');
const fixture = path.join(fixtures, 'mocked-cwd.mjs');
const register = path.join(dist, 'register.mjs');
const strategies = ['naive', 'main-thread-cache', 'sab-atomics', 'mutex', 'native', 'thread-cwd'];
const scratch = scratchDir('cwdkit-mocked-cwd-');
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

interface Runtime {
  readonly command: string;
  readonly args: readonly string[];
  readonly flag: readonly string[];
}
const node = (command: string): Runtime => ({ command, args: [], flag: [`--import=${register}`] });
const runtimes: Record<string, Runtime> = {
  'Node 20': node(process.execPath),
  'Node 24': node(path.join(packageRoot, '../../node_modules/node24/bin/node')),
  Bun: { command: path.join(bin, 'bun'), args: [], flag: ['--preload', register] },
  Deno: { command: path.join(bin, 'deno'), args: ['run', '-A'], flag: ['--preload', register] },
};

/** The fixture's report, in one runtime: bare, with `strategy` by install(), or by the flag. */
async function report(runtime: Runtime, how: 'bare' | 'install' | 'flag', strategy = '', order = '') {
  const mode = how === 'install' ? strategy : how;
  const flag = how === 'flag' ? runtime.flag : [];
  const args = [...runtime.args, ...flag, fixture, scratch, mode, ...(order ? [order] : [])];
  const result = await run(runtime.command, args, { cwd: packageRoot, env: { CWDKIT_STRATEGY: strategy } });
  // thread-cwd says where it runs process-scoped (Bun, Deno); nothing else may be printed.
  const stderr = result.stderr.replace(/^.*\[CWDKIT_THREAD_CWD_PROCESS_SCOPE\].*\n(.*--trace-warnings.*\n)?/m, '');
  expect(stderr, `${how} ${strategy} ${order}`).toBe('');
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe.skipIf(process.platform === 'win32')('path.resolve and process.cwd under a fake process.cwd', () => {
  it.each(Object.keys(runtimes))(
    'on %s: every strategy, by install() and by the flag, answers as the bare runtime',
    async (name) => {
      const runtime = runtimes[name] as Runtime;
      const reference = await report(runtime, 'bare');
      const referenceFirst = await report(runtime, 'bare', '', 'mock-first');
      expect(reference.installed).toBe(null);
      const reports: [string, Record<string, unknown>, Record<string, unknown>][] = [];
      for (const strategy of strategies) {
        const [installed, flagged, first] = await Promise.all([
          report(runtime, 'install', strategy),
          report(runtime, 'flag', strategy),
          report(runtime, 'flag', strategy, 'mock-first'),
        ]);
        reports.push([`${strategy} by install()`, installed, reference]);
        reports.push([`${strategy} by the flag`, flagged, reference]);
        reports.push([`${strategy} by the flag, faked before the first chdir`, first, referenceFirst]);
      }
      for (const [label, got, want] of reports) {
        const strategy = label.split(' ')[0];
        // Not vacuous: the strategy really was installed when the fakes ran.
        expect(got.installed, label).toBe(strategy);
        expect({ ...got, installed: null }, label).toEqual(want);
      }
    },
  );
});
