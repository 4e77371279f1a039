// One flag to adopt cwdkit: a real app in a fresh project (cwdkit, core and the real @cwdkit/sab-atomics copied into
// its node_modules), run with `node --import`, `NODE_OPTIONS`, `bun --preload` and `deno run --preload`; it starts a
// real worker. The app itself never imports the strategy: its main thread only orchestrates.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, majorRuns, packageRoot, run, scratchDir, writeFile } from './helpers.js';

const bin = path.join(packageRoot, '../../node_modules/.bin');
let project: string;
let mutexProject: string;

beforeAll(() => {
  project = scratchDir('cwdkit-register-');
  copyPackage(project);
  const strategy = path.join(packageRoot, '../sab-atomics');
  for (const part of ['dist', 'package.json']) {
    fs.cpSync(path.join(strategy, part), path.join(project, 'node_modules/@cwdkit/sab-atomics', part), {
      recursive: true,
    });
  }
  // Deno resolves npm: specifiers only for the dependencies package.json lists.
  writeFile(path.join(project, 'package.json'), {
    name: 'app',
    private: true,
    type: 'module',
    dependencies: { cwdkit: '0.0.0', '@cwdkit/sab-atomics': '0.0.0' },
    cwdkit: { strategy: 'sab-atomics' },
  });
  fs.mkdirSync(path.join(project, 'sub'));
  for (let i = 0; i < 8; i++) fs.mkdirSync(path.join(project, 'sub', `d${i}`));
  // A strategy package that fails to load, with a message of two lines.
  writeFile(path.join(project, 'node_modules/cwdkit-broken/package.json'), {
    name: 'cwdkit-broken',
    version: '1.0.0',
    main: 'index.cjs',
    cwdkit: { strategy: 'broken' },
  });
  writeFile(
    path.join(project, 'node_modules/cwdkit-broken/index.cjs'),
    "throw new Error('no binary for this platform.\\nA second line of advice');\n",
  );
  // An app that does nothing but report, at exit, what the process loaded: builtins and CommonJS files.
  writeFile(path.join(project, 'empty-preload.mjs'), '');
  writeFile(
    path.join(project, 'loaded.mjs'),
    `import { createRequire } from 'node:module';
const { cache } = createRequire(import.meta.url);
process.on('exit', () => {
  console.log(JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(cache) }));
});
`,
  );
  writeFile(
    path.join(project, 'loaded-after-chdir.mjs'),
    `import { createRequire } from 'node:module';
process.chdir('.');
const { cache } = createRequire(import.meta.url);
process.on('exit', () => {
  console.log(JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(cache) }));
});
`,
  );
  // Under the flag, a worker started before the main thread's first chdir (nothing loaded yet), then chdirs on the
  // main thread: what the worker's provider (and, on Node, its process.cwd()) says after each, and whether it is cold.
  writeFile(
    path.join(project, 'cold.mjs'),
    `import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { createCwdProviderSync, installed } from 'cwdkit';

const home = path.dirname(fileURLToPath(import.meta.url));
if (isMainThread) {
  const pending = typeof (globalThis.Deno ? globalThis : Object.getPrototypeOf(process))[Symbol.for('cwdkit.register.pending')] === 'function';
  const worker = new Worker(new URL(import.meta.url));
  const next = () => new Promise((resolve) => worker.once('message', resolve));
  const { cold } = await next();
  const seen = [];
  for (let i = 0; i < 8; i++) {
    const dir = path.join(home, 'sub', 'd' + i);
    process.chdir(dir);
    worker.postMessage('cwd');
    seen.push({ expected: dir, ...(await next()) });
  }
  process.chdir(home);
  await worker.terminate();
  console.log(JSON.stringify({ pending, cold, installed: installed(), seen }));
} else {
  const provider = createCwdProviderSync();
  parentPort.postMessage({ cold: provider.capabilities.cold === true });
  parentPort.on('message', () => parentPort.postMessage({ provider: provider.cwd(), process: process.cwd() }));
}
`,
  );
  // The same, with what is installed, for Deno (which has no moduleLoadList): the app imports cwdkit itself.
  writeFile(
    path.join(project, 'loaded-deno.mjs'),
    `import { createRequire } from 'node:module';
import { installed } from 'cwdkit';
console.log(JSON.stringify({ files: Object.keys(createRequire(import.meta.url).cache), installed: installed() }));
`,
  );
  // Under the flag: a worker started before the main thread's first chdir, then 50 lockstep chdirs and a storm of
  // 2000 (the worker reads in a loop, each read checked against the directories current during it), then a worker
  // started after them. Every worker makes a provider of its own (Bun and Deno workers run no preload).
  writeFile(
    path.join(project, 'early.js'),
    `import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getEnvironmentData, isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const strategy = process.env.CWDKIT_STRATEGY;
const { createProvider } = await import(\`@cwdkit/\${strategy}\`);
// Not from process.cwd(): on Deno the main thread's first cwd() is what publishes the shared memory.
const home = path.dirname(fileURLToPath(import.meta.url));
const dirs = Array.from({ length: 8 }, (_, i) => path.join(home, 'sub', 'd' + i));
const shared = () => getEnvironmentData(\`cwdkit:\${strategy}.v1\`) instanceof SharedArrayBuffer;
if (isMainThread) {
  const control = new Int32Array(new SharedArrayBuffer(12)); // [0] generation, [1] stop, [2] ready
  control[0] = -1;
  const start = () => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { control: control.buffer } });
    const messages = [];
    const waiting = [];
    worker.on('message', (m) => (waiting.length ? waiting.shift()(m) : messages.push(m)));
    const next = () => (messages.length ? Promise.resolve(messages.shift()) : new Promise((r) => waiting.push(r)));
    return { worker, next };
  };
  const early = start();
  const report = { early: await early.next() };
  let lockstep = 0;
  for (let i = 0; i < 50; i++) {
    process.chdir(dirs[i % dirs.length]);
    early.worker.postMessage('cwd');
    if ((await early.next()) === dirs[i % dirs.length]) lockstep++;
  }
  process.chdir(home);
  early.worker.postMessage('storm');
  while (Atomics.load(control, 2) === 0);
  for (let i = 0; i < 2000; i++) {
    process.chdir(dirs[i % dirs.length]);
    Atomics.store(control, 0, i);
    for (const until = performance.now() + 0.02; performance.now() < until; );
  }
  Atomics.store(control, 1, 1);
  report.storm = await early.next();
  report.lockstep = lockstep;
  const late = start();
  report.late = await late.next();
  process.chdir(home);
  await Promise.all([early.worker.terminate(), late.worker.terminate()]);
  console.log(JSON.stringify(report));
} else {
  const provider = createProvider();
  parentPort.postMessage({ shared: shared(), cold: provider.capabilities.cold ?? false });
  const control = new Int32Array(workerData.control);
  const expected = (k) => (k < 0 ? home : dirs[k % dirs.length]);
  parentPort.on('message', (m) => {
    if (m === 'cwd') return parentPort.postMessage(provider.cwd());
    let reads = 0;
    let stale = 0;
    Atomics.store(control, 2, 1);
    while (Atomics.load(control, 1) === 0) {
      const first = Atomics.load(control, 0);
      const cwd = provider.cwd();
      const second = Atomics.load(control, 0);
      reads++;
      let ok = false;
      for (let k = first; k <= second + 1 && !ok; k++) ok = cwd === expected(k);
      if (!ok) stale++;
    }
    parentPort.postMessage({ reads, stale });
  });
}
`,
  );
  writeFile(
    path.join(project, 'app.js'),
    `import path from 'node:path';
import { getEnvironmentData, isMainThread, parentPort, Worker } from 'node:worker_threads';
import { installed } from 'cwdkit';

function report() {
  return {
    installed: installed() ?? null,
    cwd: process.cwd(),
    resolve: path.resolve('x'),
    // What register published on the main thread, for workers the strategy never saw start.
    sharedMemory: getEnvironmentData('cwdkit:sab-atomics.v1') instanceof SharedArrayBuffer,
  };
}
if (isMainThread) {
  const before = report();
  process.chdir('sub');
  const after = report();
  const worker = new Worker(new URL(import.meta.url));
  worker.once('message', (inWorker) => {
    console.log(JSON.stringify({ before, after, worker: inWorker }));
    process.chdir('..');
  });
  worker.once('error', (error) => console.log(JSON.stringify({ error: error.message })));
} else {
  parentPort.postMessage(report());
}
`,
  );
  // The same app with @cwdkit/mutex installed too, for the early-worker test (a failure test above needs it missing).
  mutexProject = scratchDir('cwdkit-register-mutex-');
  fs.cpSync(project, mutexProject, { recursive: true });
  for (const part of ['dist', 'package.json']) {
    fs.cpSync(path.join(packageRoot, '../mutex', part), path.join(mutexProject, 'node_modules/@cwdkit/mutex', part), {
      recursive: true,
    });
  }
  writeFile(path.join(mutexProject, 'package.json'), {
    name: 'app',
    private: true,
    type: 'module',
    dependencies: { cwdkit: '0.0.0', '@cwdkit/sab-atomics': '0.0.0', '@cwdkit/mutex': '0.0.0' },
  });
});

afterAll(() => {
  fs.rmSync(project, { recursive: true, force: true });
  fs.rmSync(mutexProject, { recursive: true, force: true });
});

describe('cwdkit/register', () => {
  const sub = () => path.join(project, 'sub');
  const main = (installed: string | null) => ({
    before: { installed, cwd: project, resolve: path.join(project, 'x'), sharedMemory: true },
    after: { installed, cwd: sub(), resolve: path.join(sub(), 'x'), sharedMemory: true },
  });

  it.each([
    // Node passes --import on to workers (their default execArgv): the worker installs the strategy too.
    ['node --import', process.execPath, ['--import', 'cwdkit/register', 'app.js'], {}, 'sab-atomics'],
    ['NODE_OPTIONS', process.execPath, ['app.js'], { NODE_OPTIONS: '--import=cwdkit/register' }, 'sab-atomics'],
    // Bun and Deno do not run a preload in workers; the worker still finds the shared memory.
    ['bun --preload', path.join(bin, 'bun'), ['--preload', 'cwdkit/register', 'app.js'], {}, null],
    [
      'deno run --preload',
      path.join(bin, 'deno'),
      ['run', '--preload', 'npm:cwdkit/register', '--allow-read', '--allow-env', 'app.js'],
      {},
      null,
    ],
    // A file: or tarball install names the file: the ES module (what the "deno" condition picks) or the CommonJS one.
    ...(['register.mjs', 'register.cjs'] as const).map(
      (file) =>
        [
          `deno run --preload dist/${file}`,
          path.join(bin, 'deno'),
          ['run', '--preload', `./node_modules/cwdkit/dist/${file}`, '--allow-read', '--allow-env', 'app.js'],
          {},
          null,
        ] as const,
    ),
  ] as const)(
    '%s: the app sees the configured strategy, and its worker',
    async (_how, command, args, env, inWorker) => {
      const result = await run(command, [...args], { cwd: project, env });
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        ...main('sab-atomics'),
        worker: { installed: inWorker, cwd: sub(), resolve: path.join(sub(), 'x'), sharedMemory: true },
      });
    },
  );

  it('without the flag nothing is installed and no shared memory is published', async () => {
    const result = await run(process.execPath, ['app.js'], { cwd: project });
    expect(result.stderr).toBe('');
    const outcome = JSON.parse(result.stdout);
    expect(outcome.before).toMatchObject({ installed: null, sharedMemory: false });
    expect(outcome.worker).toMatchObject({ installed: null, sharedMemory: false });
  });

  it('a selection error stops the program before the app runs, with its code', async () => {
    const result = await run(process.execPath, ['--import', 'cwdkit/register', 'app.js'], {
      cwd: project,
      env: { CWDKIT_STRATEGY: 'Sab-Atomics' },
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('ERR_CWDKIT_UNKNOWN_STRATEGY');
    expect(result.stderr).toContain('did you mean "sab-atomics"?');
  });

  // A failing flag says one sentence (which strategy, why, what to do) and stops the program, on every runtime.
  const runtimes = [
    ['node', process.execPath, ['--import', 'cwdkit/register', 'app.js']],
    ['bun', path.join(bin, 'bun'), ['--preload', 'cwdkit/register', 'app.js']],
    [
      'deno',
      path.join(bin, 'deno'),
      ['run', '--preload', 'npm:cwdkit/register', '--allow-read', '--allow-env', 'app.js'],
    ],
    ...(['register.mjs', 'register.cjs'] as const).map(
      (file) =>
        [
          `deno, dist/${file}`,
          path.join(bin, 'deno'),
          ['run', '--preload', `./node_modules/cwdkit/dist/${file}`, '--allow-read', '--allow-env', 'app.js'],
        ] as const,
    ),
  ] as const;
  const failures = [
    ['nonesuch', ['"nonesuch" is not installed', 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED']],
    ['Sab-Atomics', ['did you mean "sab-atomics"?', 'ERR_CWDKIT_UNKNOWN_STRATEGY']],
    [
      'mutex,naive',
      [
        'CWDKIT_STRATEGY: mutex, naive are not installed; install one: npm install @cwdkit/mutex [ERR_CWDKIT_NO_STRATEGY]',
      ],
    ],
    [
      'broken,mutex',
      [
        'broken (The cwdkit strategy "broken" failed to load: no binary for this platform) failed to load; ',
        'mutex is not installed; install one: npm install @cwdkit/mutex [ERR_CWDKIT_NO_STRATEGY]',
      ],
    ],
  ] as const;
  describe.each(runtimes)('a failing flag on %s', (_runtime, command, args) => {
    it.each(failures)('CWDKIT_STRATEGY=%s: one line on stderr, nothing run, exit 1', async (value, parts) => {
      const result = await run(command, [...args], { cwd: project, env: { CWDKIT_STRATEGY: value } });
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^cwdkit\/register: /);
      for (const part of parts) expect(lines[0]).toContain(part);
    });
  });

  // The app imports the strategy itself before the flag loaded anything. Node 24.15+ and Deno defer its shared memory
  // to the main thread's first chdir (Node) or cwd() (Deno): a worker started before it is cold, and its own
  // runtime's cwd is coherent there. Bun and Node 20/22 publish when the strategy loads. On Deno the flag stubs the
  // app's process.chdir when the app first reads the global `process` (reading it at start costs Deno ~9 ms).
  const node24 = path.join(packageRoot, '../../node_modules/node24/bin/node');
  const node22 = path.join(packageRoot, '../../node_modules/node22/bin/node');
  const early = [
    ['node 24', node24, ['--import', 'cwdkit/register', 'early.js'], true, true],
    ['node 20', process.execPath, ['--import', 'cwdkit/register', 'early.js'], false, true],
    ['bun', path.join(bin, 'bun'), ['--preload', 'cwdkit/register', 'early.js'], false, true],
    ['deno', path.join(bin, 'deno'), ['run', '--preload', 'npm:cwdkit/register', '-A', 'early.js'], true, true],
  ] as const;
  it.each(early.flatMap((entry) => ['sab-atomics', 'mutex'].map((strategy) => [entry[0], strategy, entry] as const)))(
    '%s, %s: a worker started before the first chdir sees every chdir, in lockstep and in a storm',
    async (_runtime, strategy, [, command, args, deferred, lateWarm]) => {
      const result = await run(command, [...args], {
        cwd: strategy === 'mutex' ? mutexProject : project,
        env: { CWDKIT_STRATEGY: strategy },
      });
      expect(result.stderr).toBe('');
      const report = JSON.parse(result.stdout);
      expect(report).toMatchObject({
        early: { shared: !deferred, cold: deferred },
        lockstep: 50,
        storm: { stale: 0 },
        late: { shared: lateWarm, cold: !lateWarm },
      });
      expect(report.storm.reads).toBeGreaterThan(2000);
    },
    120_000,
  );

  it('Node 24: the flag loads no builtin at start-up that an empty preload does not (worker_threads, streams, os)', async () => {
    const load = async (preload: string, env: NodeJS.ProcessEnv) => {
      const result = await run(node24, ['--import', preload, 'loaded.mjs'], { cwd: project, env });
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout) as { builtins: string[] };
    };
    // package.json names sab-atomics; a preference list whose first entry is not installed through the variable
    for (const env of [{}, { CWDKIT_STRATEGY: 'sab-atomics' }, { CWDKIT_STRATEGY: 'native,sab-atomics' }]) {
      const empty = await load('./empty-preload.mjs', env);
      const registered = await load('cwdkit/register', env);
      const added = registered.builtins.filter((name) => !empty.builtins.includes(name));
      expect(added, JSON.stringify(env)).toEqual([]);
    }
  });

  // On Deno a CommonJS preload costs start-up of its own: the "deno" export condition gives Deno the ES module, which
  // loads the strategy's ESM build.
  it('Deno: npm:cwdkit/register loads no CommonJS file (the "deno" condition), and installs the strategy', async () => {
    for (const preload of ['npm:cwdkit/register', './node_modules/cwdkit/dist/register.mjs']) {
      const result = await run(
        path.join(bin, 'deno'),
        ['run', '--preload', preload, '--allow-read', '--allow-env', 'loaded-deno.mjs'],
        { cwd: project, env: { CWDKIT_STRATEGY: 'sab-atomics' } },
      );
      expect(result.stderr).toBe('');
      const { files, installed } = JSON.parse(result.stdout) as { files: string[]; installed: string };
      expect(files, preload).toEqual([]);
      expect(installed, preload).toBe('sab-atomics');
    }
  });

  // Deno runs a CommonJS module with its Node layer's `process` passed in, not read from the global accessor the flag
  // watches. A CommonJS main module (.cjs, or .js in a "type": "commonjs" package) gets the stub at start, as an ES
  // module that reads `process` does: the same program as .mjs, .cjs and .js behaves the same, its first chdir installs.
  it('Deno: a CommonJS main module gets what an ES module gets: its first process.chdir() installs', async () => {
    const sub = path.join(project, 'sub');
    const app = `const pending = () => typeof (globalThis.Deno ? globalThis : Object.getPrototypeOf(process))[Symbol.for('cwdkit.register.pending')] === 'function';
const before = pending();
let nul;
try { process.chdir('a\\0b'); nul = 'none'; } catch (error) { nul = error.code; }
const waitingAfter = pending();
process.chdir(${JSON.stringify(sub)});
console.log(JSON.stringify({ before, nul, waitingAfter, cwd: process.cwd(), deno: Deno.cwd() }));
`;
    writeFile(path.join(project, 'commonjs/package.json'), { type: 'commonjs' });
    const outcomes: Record<string, unknown> = {};
    for (const file of ['main.mjs', 'main.cjs', 'commonjs/main.js']) {
      writeFile(path.join(project, file), app);
      const result = await run(
        path.join(bin, 'deno'),
        ['run', '--preload', './node_modules/cwdkit/dist/register.mjs', '--allow-read', '--allow-env', file],
        { cwd: project },
      );
      expect(result.stderr, file).toBe('');
      outcomes[file] = JSON.parse(result.stdout);
    }
    const expected = { before: true, nul: 'ERR_INVALID_ARG_VALUE', waitingAfter: false, cwd: sub, deno: sub };
    expect(outcomes).toEqual({ 'main.mjs': expected, 'main.cjs': expected, 'commonjs/main.js': expected });
  });

  // What the README says of a CommonJS module that an ES module app loads, on Deno 2.9: its process.chdir() is Deno's
  // own and installs nothing until installed() (or install(), or Deno.chdir()); its answers are the runtime's, the
  // same as without the flag. A Deno that passes CommonJS the global's `process`, or stubs it, fails this: look again.
  it('Deno: a CommonJS module of an ES module app: its chdir installs nothing, and answers as without the flag', async () => {
    const sub = path.join(project, 'sub');
    writeFile(
      path.join(project, 'dep.cjs'),
      `let nul;
try { process.chdir('a\\0b'); nul = 'none'; } catch (error) { nul = error.code; }
process.chdir(${JSON.stringify(sub)});
module.exports = { nul, cwd: process.cwd(), later: () => process.cwd() };
`,
    );
    writeFile(
      path.join(project, 'esm-dep.mjs'),
      `import dep from './dep.cjs';
const pending = typeof (globalThis.Deno ? globalThis : Object.getPrototypeOf(process))[Symbol.for('cwdkit.register.pending')] === 'function';
const { installed } = await import('cwdkit');
const name = installed() ?? null;
console.log(JSON.stringify({ pending, installed: name, nul: dep.nul, cwd: dep.cwd, later: dep.later(), deno: Deno.cwd() }));
`,
    );
    const deno = path.join(bin, 'deno');
    const flags = ['--allow-read', '--allow-env', 'esm-dep.mjs'];
    const [plain, flagged] = await Promise.all([
      run(deno, ['run', ...flags], { cwd: project }),
      run(deno, ['run', '--preload', './node_modules/cwdkit/dist/register.mjs', ...flags], { cwd: project }),
    ]);
    expect([plain.stderr, flagged.stderr]).toEqual(['', '']);
    const without = JSON.parse(plain.stdout);
    expect(without).toMatchObject({ pending: false, installed: null, cwd: sub, later: sub, deno: sub });
    expect(JSON.parse(flagged.stdout)).toEqual({ ...without, pending: true, installed: 'sab-atomics' });
  });

  // Deno reads the selection's files with its own calls and asks node:fs only for what they do not answer: every
  // config file, good or hostile, gives the same outcome as on Node, through both of Deno's preloads.
  it('Deno and Bun: every config file, good or hostile, gives the outcome Node gives (the same line, the same exit)', async () => {
    const cases: [string, (file: string) => void, ok?: true][] = [
      ['valid', (file) => fs.writeFileSync(file, '{"strategy": "sab-atomics"}'), true],
      ['with a BOM', (file) => fs.writeFileSync(file, '\uFEFF{"strategy": "sab-atomics"}'), true],
      ['a symlink to a valid file', (file) => fs.symlinkSync(path.join(project, 'good.json'), file), true],
      ['empty', (file) => fs.writeFileSync(file, ' \n')],
      ['zero bytes', (file) => fs.writeFileSync(file, '')],
      ['invalid JSON', (file) => fs.writeFileSync(file, '{"strategy": ')],
      ['not UTF-8', (file) => fs.writeFileSync(file, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))],
      ['a wrong key', (file) => fs.writeFileSync(file, '{"strategies": "sab-atomics"}')],
      ['a directory', (file) => fs.mkdirSync(file)],
      ['a dangling symlink', (file) => fs.symlinkSync(path.join(project, 'nothing-here'), file)],
      ['/dev/zero', (file) => fs.symlinkSync('/dev/zero', file)],
      ['over 1 MiB', (file) => fs.writeFileSync(file, `{"strategy": "sab-atomics"}${' '.repeat(1024 * 1024)}`)],
      ['a FIFO', (file) => execFileSync('mkfifo', [file])],
    ];
    fs.writeFileSync(path.join(project, 'good.json'), '{"strategy": "sab-atomics"}');
    const report = path.join(project, 'report.mjs');
    fs.writeFileSync(report, "import { installed } from 'cwdkit';\nconsole.log(installed() ?? 'none');\n");
    const deno = path.join(bin, 'deno');
    const flags = ['--allow-read', '--allow-env'];
    for (const [label, make, ok] of cases) {
      // Its own project root (.git), so that the search stops there; cwdkit and the strategy come from cwdkit's own.
      const dir = path.join(project, 'hostile', label.replace(/\W+/g, '-'));
      fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
      make(path.join(dir, 'cwdkit.config.json'));
      const outcome = async (command: string, args: string[]) => {
        const { code, stdout, stderr } = await run(command, [...args, report], { cwd: dir });
        return { code, stdout, stderr };
      };
      const node = await outcome(process.execPath, ['--import', 'cwdkit/register']);
      if (ok) expect(node, label).toEqual({ code: 0, stdout: 'sab-atomics\n', stderr: '' });
      else
        expect(node, label).toMatchObject({
          code: 1,
          stdout: '',
          stderr: expect.stringMatching(/^cwdkit\/register: [^\n]*\n$/),
        });
      for (const preload of ['npm:cwdkit/register', path.join(project, 'node_modules/cwdkit/dist/register.cjs')]) {
        expect(await outcome(deno, ['run', '--preload', preload, ...flags]), `${label}, ${preload}`).toEqual(node);
      }
      // Bun's start-up check reads with Bun.file and Bun.mmap (node:fs costs it ~2 ms): the same outcomes, except that
      // Bun.file cannot tell a dangling symlink from no file, so that mistake is found on first use (here installed()).
      const bun = await outcome(path.join(bin, 'bun'), ['--preload', 'cwdkit/register']);
      if (label === 'a dangling symlink') {
        expect(bun, label).toMatchObject({
          code: 1,
          stdout: '',
          stderr: expect.stringContaining('ERR_CWDKIT_CONFIG_FILE'),
        });
      } else {
        // JSON.parse's own message is the engine's (JavaScriptCore words it otherwise than V8).
        const same = ({ stderr, ...rest }: typeof node) => ({
          ...rest,
          stderr: stderr.replace(/JSON \(.*\) \[/, 'JSON (…) ['),
        });
        expect(same(bun), label).toEqual(same(node));
      }
    }
    // 56 processes one after another (Deno's start is the slowest): 120 s ran out here with other work on the machine.
  }, 480_000);

  it('Node 20: loads nothing at start-up; the first chdir loads one CommonJS copy of core, the strategy and cwdkit', async () => {
    const load = async (preload: string, app: string) => {
      const result = await run(process.execPath, ['--import', preload, app], {
        cwd: project,
        env: { CWDKIT_STRATEGY: 'sab-atomics' },
      });
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout) as { builtins: string[]; files: string[] };
    };
    const files = (loaded: { files: string[] }) =>
      loaded.files.map((file) => path.relative(path.join(project, 'node_modules'), file)).sort();
    const empty = await load('./empty-preload.mjs', 'loaded.mjs');
    const start = await load('cwdkit/register', 'loaded.mjs');
    expect(start.builtins.filter((name) => !empty.builtins.includes(name))).toEqual([]);
    expect(files(start)).toEqual([]);
    const used = await load('cwdkit/register', 'loaded-after-chdir.mjs');
    const added = used.builtins.filter((name) => !empty.builtins.includes(name));
    // What an ESM `import fs from 'node:fs'` / `import process from 'node:process'` drags in through their lazy
    // getters (fs/promises, readline, the REPL's history, the diagnostic report): none of it is needed.
    for (const name of ['internal/fs/promises', 'internal/readline/interface', 'internal/process/report']) {
      expect(added).not.toContain(`NativeModule ${name}`);
    }
    expect(added).toContain('NativeModule worker_threads'); // Node 20: the shared memory, created when it loads
    // One CommonJS copy of each (never a second, ESM copy of core).
    expect(files(used)).toEqual([
      '@cwdkit/core/dist/index.cjs',
      '@cwdkit/sab-atomics/dist/index.cjs',
      'cwdkit/dist/index.cjs',
    ]);
  });

  // Node 22 and Bun: a worker's own cwd can miss a main-thread chdir; Node 24: it cannot. Bun runs no preload in workers.
  it.each([
    ['node 22', node22, ['--import', 'cwdkit/register', 'cold.mjs'], true],
    ['node 24', node24, ['--import', 'cwdkit/register', 'cold.mjs'], true],
    ['bun', path.join(bin, 'bun'), ['--preload', 'cwdkit/register', 'cold.mjs'], false],
  ] as const)(
    '%s: a worker started before the first use is cold and right after every main-thread chdir',
    async (_runtime, command, args, preloadInWorker) => {
      const result = await run(command, [...args], { cwd: project, env: { CWDKIT_STRATEGY: 'sab-atomics' } });
      expect(result.stderr).toBe('');
      const report = JSON.parse(result.stdout);
      expect(report).toMatchObject({ pending: true, cold: true, installed: 'sab-atomics' });
      expect(report.seen).toHaveLength(8);
      for (const { expected, provider, process: own } of report.seen) {
        expect(provider).toBe(expected);
        // Node's worker runs the flag too: there process.cwd() is the runtime's own (24) or the installed cold one (22).
        if (preloadInWorker) expect(own).toBe(expected);
      }
    },
    60_000,
  );

  it("a strategy that is present but fails to load at first use: a coded error there, never the runtime's answer", async () => {
    // native's package without its addon's loader: the start-up check finds the package, the first chdir loads it.
    const broken = scratchDir('cwdkit-register-native-');
    fs.cpSync(project, broken, { recursive: true, filter: (file) => !file.includes('hostile') }); // no FIFO
    for (const part of ['dist', 'package.json']) {
      fs.cpSync(path.join(packageRoot, '../native', part), path.join(broken, 'node_modules/@cwdkit/native', part), {
        recursive: true,
      });
    }
    writeFile(
      path.join(broken, 'first-use.mjs'),
      `import { installed } from 'cwdkit';
const before = process.cwd();
const codes = [];
for (const use of [() => process.chdir('sub'), () => process.chdir('sub'), () => installed()]) {
  try {
    use();
    codes.push('none');
  } catch (error) {
    codes.push(error.code);
  }
}
console.log(JSON.stringify({ codes, unmoved: process.cwd() === before }));
`,
    );
    try {
      const result = await run(node24, ['--import', 'cwdkit/register', 'first-use.mjs'], {
        cwd: broken,
        env: { CWDKIT_STRATEGY: 'native' },
      });
      expect(result.stderr).toBe('');
      const code = 'ERR_CWDKIT_STRATEGY_LOAD_FAILED';
      expect(JSON.parse(result.stdout)).toEqual({ codes: [code, code, code], unmoved: true });
    } finally {
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });

  // thread-cwd's install() covers new Workers on a Node main thread (the setup entry preloaded, so that they start
  // installed), and nothing else there; on Bun and Deno only a warning. So at start the flag loads its start entry
  // alone on Node (@cwdkit/thread-cwd/start: the Worker cover), and nothing on Bun and Deno; the rest waits for the
  // first use, as for the plain names. What a worker started before then sees is thread-cwd's test/workers.test.ts.
  describe('thread-cwd under the flag', () => {
    let hooked: string;
    const node26 = path.join(packageRoot, '../../node_modules/node26/bin/node');
    beforeAll(() => {
      hooked = scratchDir('cwdkit-register-thread-cwd-');
      fs.cpSync(project, hooked, { recursive: true, filter: (file) => !file.includes('hostile') }); // no FIFO
      for (const part of ['dist', 'package.json']) {
        fs.cpSync(
          path.join(packageRoot, '../thread-cwd', part),
          path.join(hooked, 'node_modules/@cwdkit/thread-cwd', part),
          {
            recursive: true,
          },
        );
      }
      // thread-cwd's kernel mode needs @cwdkit/native: linked, so that its own dependencies resolve from the repo.
      fs.symlinkSync(path.join(packageRoot, '../native'), path.join(hooked, 'node_modules/@cwdkit/native'));
      writeFile(path.join(hooked, 'package.json'), {
        name: 'app',
        private: true,
        type: 'module',
        dependencies: { cwdkit: '0.0.0', '@cwdkit/sab-atomics': '0.0.0', '@cwdkit/thread-cwd': '0.0.0' },
      });
      // What the process loaded before the app did anything, what is installed then, and after its first chdir.
      writeFile(
        path.join(hooked, 'at-start.mjs'),
        `const builtins = [...(process.moduleLoadList ?? [])];
const { createRequire } = await import('node:module');
const files = Object.keys(createRequire(import.meta.url).cache);
const pending = typeof (globalThis.Deno ? globalThis : Object.getPrototypeOf(process))[Symbol.for('cwdkit.register.pending')];
const atStart = (globalThis.Deno ? globalThis : Object.getPrototypeOf(process))[Symbol.for('cwdkit.install')]?.installed ?? null;
const warnings = [];
process.on('warning', (warning) => warnings.push(warning.code));
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
await tick();
const early = [...warnings];
process.chdir('sub');
await tick();
const { installed } = await import('cwdkit');
console.log(JSON.stringify({ builtins, files, pending, atStart, early, warnings, installed: installed(), cwd: process.cwd() }));
`,
      );
      // What the start entry may load: node:worker_threads (the cover) and node:module (a CommonJS file loaded from
      // the ES module register), and what the register loads anyway (its import.meta).
      writeFile(
        path.join(hooked, 'floor.mjs'),
        "process.getBuiltinModule('node:module');\nprocess.getBuiltinModule('node:worker_threads');\nimport.meta.url;\n",
      );
    });
    afterAll(() => fs.rmSync(hooked, { recursive: true, force: true }));

    interface AtStart {
      builtins: string[];
      files: string[];
      pending: string;
      atStart: string | null;
      early: string[];
      warnings: string[];
      installed: string;
      cwd: string;
    }
    const start = async (command: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd = hooked) => {
      const result = await run(command, [...args, 'at-start.mjs'], { cwd, env });
      // Bun and Deno print thread-cwd's one warning (also seen by the app: `warnings`); nothing else.
      expect(result.stderr.replace(/^.*\[CWDKIT_THREAD_CWD_PROCESS_SCOPE\].*\n(?:\(Use `.*\n)?/m, '')).toBe('');
      const seen = JSON.parse(result.stdout) as AtStart;
      return { ...seen, files: seen.files.map((file) => path.relative(path.join(cwd, 'node_modules'), file)).sort() };
    };
    const configs = [
      ['cwdkit.config.json', {}],
      ['CWDKIT_STRATEGY=thread-cwd', { CWDKIT_STRATEGY: 'thread-cwd' }],
      ['CWDKIT_STRATEGY=thread-cwd,sab-atomics', { CWDKIT_STRATEGY: 'thread-cwd,sab-atomics' }],
    ] as const;
    const withConfig = (label: string) => {
      const file = path.join(hooked, 'cwdkit.config.json');
      if (label === 'cwdkit.config.json') writeFile(file, { strategy: 'thread-cwd' });
      else fs.rmSync(file, { force: true });
    };

    it.each(
      (
        [
          [22, 'node 22', node22],
          [24, 'node 24', node24],
          [26, 'node 26', node26],
        ] as const
      )
        // Node 24 on every run, as thread-cwd's own per-major tests; Node 22 and 26 in npm run test:release.
        .filter(([major]) => majorRuns(major))
        .flatMap(([, name, node]) => configs.map(([label, env]) => [name, label, node, env] as const)),
    )(
      '%s, %s: at start only the start entry and the builtins of its Worker cover load; the first chdir installs thread-cwd',
      async (_name, label, node, env) => {
        withConfig(label);
        const floor = await start(node, ['--import', './floor.mjs'], env);
        const seen = await start(node, ['--import', 'cwdkit/register'], env);
        expect(floor.builtins).toContain('NativeModule worker_threads');
        expect(seen.builtins).toContain('NativeModule worker_threads'); // the cover is in place
        expect(seen.builtins.filter((name) => !floor.builtins.includes(name))).toEqual([]);
        expect(seen).toMatchObject({
          files: ['@cwdkit/thread-cwd/dist/start.cjs'],
          pending: 'function',
          atStart: null,
          early: [],
          warnings: [],
          installed: 'thread-cwd',
          cwd: path.join(hooked, 'sub'),
        });
      },
      60_000,
    );

    it.each(
      (
        [
          ['bun', path.join(bin, 'bun'), ['--preload', 'cwdkit/register']],
          ['deno', path.join(bin, 'deno'), ['run', '--preload', 'npm:cwdkit/register', '-A']],
        ] as const
      ).flatMap(([name, command, args]) => configs.map(([label, env]) => [name, label, command, args, env] as const)),
    )(
      '%s, %s: nothing loaded at start; the first chdir installs thread-cwd, and its process-scope warning (if any) comes then',
      async (_name, label, command, args, env) => {
        withConfig(label);
        const seen = await start(command, args, env);
        expect(seen.files.filter((file) => !file.endsWith('cwdkit/dist/register.mjs'))).toEqual([]);
        expect(seen).toMatchObject({
          pending: 'function',
          atStart: null,
          early: [],
          installed: 'thread-cwd',
          cwd: path.join(hooked, 'sub'),
        });
        // Bun, and Deno with -A, give workers a cwd of their own (thread-cwd's kernel mode), unless a seccomp filter
        // refuses unshare(2): with no filter at all, no warning.
        const noFilter = /^Seccomp:\s*0$/m.test(fs.readFileSync('/proc/self/status', 'utf8'));
        if (noFilter) expect(seen.warnings).toEqual([]);
        else expect(seen.warnings.filter((code) => code !== 'CWDKIT_THREAD_CWD_PROCESS_SCOPE')).toEqual([]);
      },
      60_000,
    );

    it('node 24: a start entry that cannot be loaded (a package without it), or a name with one after the first installed name, selects at start as before', async () => {
      withConfig('none');
      const without = scratchDir('cwdkit-register-no-start-');
      fs.cpSync(hooked, without, { recursive: true });
      fs.rmSync(path.join(without, 'node_modules/@cwdkit/thread-cwd/dist/start.cjs'));
      try {
        expect(
          await start(node24, ['--import', 'cwdkit/register'], { CWDKIT_STRATEGY: 'thread-cwd' }, without),
        ).toMatchObject({
          pending: 'undefined',
          atStart: 'thread-cwd',
          installed: 'thread-cwd',
        });
      } finally {
        fs.rmSync(without, { recursive: true, force: true });
      }
      // sab-atomics wins unless it fails to load, and then thread-cwd's start would come too late: selected at start.
      const later = await start(node24, ['--import', 'cwdkit/register'], { CWDKIT_STRATEGY: 'sab-atomics,thread-cwd' });
      expect(later).toMatchObject({ pending: 'undefined', atStart: 'sab-atomics', installed: 'sab-atomics' });
      expect(later.files).not.toContain('@cwdkit/thread-cwd/dist/start.cjs');
    });

    it("node 24: when the deferred load installs another strategy (thread-cwd's package fails to load), the start entry's Worker cover is put back", async () => {
      withConfig('none');
      const broken = scratchDir('cwdkit-register-broken-thread-cwd-');
      fs.cpSync(hooked, broken, { recursive: true });
      fs.rmSync(path.join(broken, 'node_modules/@cwdkit/thread-cwd/dist/index.cjs'));
      writeFile(
        path.join(broken, 'fallen.mjs'),
        `import workerThreads, { Worker } from 'node:worker_threads';
const covered = workerThreads.Worker;
process.chdir('.');
const { installed } = await import('cwdkit');
const worker = new workerThreads.Worker('./who.cjs'); // runs the flag: the strategy the main thread selected
const inWorker = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
// The ESM named import, taken while the cover was in place, follows too (the builtin's exports synced).
const named = Worker === workerThreads.Worker;
console.log(JSON.stringify({ main: installed(), restored: workerThreads.Worker !== covered, named, inWorker }));
`,
      );
      writeFile(
        path.join(broken, 'who.cjs'),
        "require('node:worker_threads').parentPort.postMessage(require('cwdkit').installed() ?? null);\n",
      );
      try {
        const result = await run(node24, ['--import', 'cwdkit/register', 'fallen.mjs'], {
          cwd: broken,
          env: { CWDKIT_STRATEGY: 'thread-cwd,sab-atomics' },
        });
        expect(result.stderr).toBe('');
        expect(JSON.parse(result.stdout)).toEqual({
          main: 'sab-atomics',
          restored: true,
          named: true,
          inWorker: 'sab-atomics',
        });
      } finally {
        fs.rmSync(broken, { recursive: true, force: true });
      }
    });
  });

  // graceful-fs (loaded by half the ecosystem) wraps process.cwd (with a cache) and process.chdir when it loads: under
  // the flag that is before the first chdir, so its chdir wrapper calls the flag's stub. It must stay in front of the
  // installed chdir (its cache is reset there), and a failing chdir must throw the runtime's error, not loop.
  it.each([
    ['node 24', node24, ['--import', 'cwdkit/register']],
    ['node 20', process.execPath, ['--import', 'cwdkit/register']],
    ['bun', path.join(bin, 'bun'), ['--preload', 'cwdkit/register']],
  ] as const)(
    "%s: graceful-fs loaded before the first chdir stays coherent, and a failing chdir is the runtime's",
    async (_runtime, command, flags) => {
      const gracefulFs = path.join(packageRoot, '../../node_modules/graceful-fs');
      const graceful = scratchDir('cwdkit-register-graceful-');
      fs.cpSync(project, graceful, { recursive: true, filter: (file) => !file.includes('hostile') }); // no FIFO
      fs.cpSync(gracefulFs, path.join(graceful, 'node_modules/graceful-fs'), { recursive: true });
      writeFile(
        path.join(graceful, 'graceful.mjs'),
        `import { createRequire } from 'node:module';
import path from 'node:path';
createRequire(import.meta.url)('graceful-fs'); // patches process.cwd and process.chdir
const { installed } = await import('cwdkit');
const home = process.cwd();
const seen = [];
for (const dir of ['sub', 'd0', '..', '..']) {
  process.chdir(dir);
  seen.push([process.cwd(), path.resolve('x')]);
}
let failure;
try {
  process.chdir('nonesuch');
} catch (error) {
  failure = { code: error.code, syscall: error.syscall };
}
console.log(JSON.stringify({ home, seen, failure, after: process.cwd(), installed: installed() }));
`,
      );
      try {
        const result = await run(command, [...flags, 'graceful.mjs'], {
          cwd: graceful,
          env: { CWDKIT_STRATEGY: 'sab-atomics' },
        });
        expect(result.stderr).toBe('');
        const sub = path.join(graceful, 'sub');
        const d0 = path.join(sub, 'd0');
        expect(JSON.parse(result.stdout)).toEqual({
          home: graceful,
          seen: [
            [sub, path.join(sub, 'x')],
            [d0, path.join(d0, 'x')],
            [sub, path.join(sub, 'x')],
            [graceful, path.join(graceful, 'x')],
          ],
          failure: { code: 'ENOENT', syscall: 'chdir' },
          after: graceful,
          installed: 'sab-atomics',
        });
      } finally {
        fs.rmSync(graceful, { recursive: true, force: true });
      }
    },
  );
});
