// The runtime helpers on Bun and Deno, in real child processes: reading the OS cwd must never open the directory
// (Bun), must name its failures with a code (Deno), and words them as the runtime does.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dist, packageRoot, scratchDir } from './helpers.js';

const bin = (name: string) => path.join(packageRoot, '..', '..', 'node_modules', '.bin', name);
const core = pathToFileURL(path.join(dist, 'index.js')).href;
let scratch: string;
beforeEach(() => {
  scratch = scratchDir('cwdkit-runtime-');
});
afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs `body` (an ES module that has `readOsCwd`, `osChdir` and `dir` in scope) under a shell line; its JSON line. */
function child(shell: string, runtime: 'bun' | 'deno', body: string): Promise<Record<string, unknown>> {
  // Inside the package, so that Deno finds the project's node_modules for core's own imports.
  const home = fs.mkdtempSync(path.join(packageRoot, 'test', 'tmp-'));
  const script = path.join(home, 'script.mjs');
  fs.writeFileSync(
    script,
    `import { readOsCwd, osChdir } from ${JSON.stringify(core)};\nconst dir = ${JSON.stringify(scratch)};\n${body}\n`,
  );
  const command = runtime === 'deno' ? `${bin('deno')} run -A ${script}` : `${bin('bun')} ${script}`;
  return new Promise((resolve, reject) => {
    // The child starts in the scratch directory's parent, never in a directory a test deletes.
    const options = { cwd: path.dirname(scratch), timeout: 60_000 };
    execFile('sh', ['-c', shell.replace('RUN', `exec ${command}`)], options, (error, stdout, stderr) => {
      fs.rmSync(home, { recursive: true, force: true });
      if (error) return reject(new Error(`${error.message}\n${stdout}${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').at(-1) as string));
    });
  });
}

/** The code of what `read` throws, or its answer. */
const outcome = `const outcome = (read) => { try { return read(); } catch (error) { return { code: error.code, message: error.message }; } };`;

// Each child has 60 s before it is killed; the test has room beyond that.
describe('Bun: the OS cwd is read with getcwd(3), never by opening the directory', { timeout: 90_000 }, () => {
  it('with every file descriptor in use, cwd() after a chdir still answers (no EMFILE)', async () => {
    fs.mkdirSync(path.join(scratch, 'in'));
    const result = await child(
      'ulimit -n 64 && RUN',
      'bun',
      `import fs from 'node:fs';
${outcome}
const held = [];
try { for (;;) held.push(fs.openSync('/dev/null', 'r')); } catch (error) { if (error.code !== 'EMFILE') throw error; }
osChdir(dir + '/in');
console.log(JSON.stringify({ held: held.length, cwd: outcome(readOsCwd) }));`,
    );
    expect(result.held).toBeGreaterThan(40);
    expect(result.cwd).toBe(path.join(scratch, 'in'));
  });

  it("after a lazy unmount of the cwd's mount, ENOENT (not a third path)", async () => {
    const mount = path.join(scratch, 'mnt');
    fs.mkdirSync(mount);
    // A private mount namespace: the tmpfs is never visible outside the child.
    const result = await child(
      `unshare -m --propagation private sh -c 'mount -t tmpfs tmpfs ${mount} && mkdir ${mount}/in && RUN'`,
      'bun',
      `import { execFileSync } from 'node:child_process';
${outcome}
osChdir(dir + '/mnt/in');
const before = readOsCwd();
execFileSync('umount', ['-l', dir + '/mnt']);
console.log(JSON.stringify({ before, after: outcome(readOsCwd) }));`,
    );
    expect(result.before).toBe(path.join(mount, 'in'));
    expect(result.after).toMatchObject({ code: 'ENOENT' });
  });

  it("a deleted cwd's error is worded as Bun words it", async () => {
    const result = await child(
      'RUN',
      'bun',
      `import fs from 'node:fs';
${outcome}
fs.mkdirSync(dir + '/doomed');
osChdir(dir + '/doomed');
fs.rmdirSync(dir + '/doomed');
console.log(JSON.stringify({ ours: outcome(readOsCwd), bun: outcome(() => process.cwd()) }));`,
    );
    expect(result.ours).toMatchObject({ code: 'ENOENT' });
    expect(result.ours).toEqual(result.bun);
  });
});

describe('Deno: a cwd whose name is not UTF-8', { timeout: 90_000 }, () => {
  it('fails with code EILSEQ, never a bare InvalidData', async () => {
    const name = Buffer.concat([Buffer.from(`${scratch}/bad-`), Buffer.from([0xff, 0xfe])]);
    fs.mkdirSync(name);
    const result = await child(
      `cd "$(printf '%s/bad-\\377\\376' '${scratch}')" && RUN`,
      'deno',
      `${outcome}\nconsole.log(JSON.stringify({ read: outcome(readOsCwd) }));`,
    );
    expect(result.read).toMatchObject({ code: 'EILSEQ' });
    expect((result.read as { message: string }).message).toMatch(/^EILSEQ: .*not valid UTF-8, uv_cwd$/);
  });
});

// Whether a cold worker may trust the runtime's own worker cwd is decided by the version; the truth is in each Node
// binary's own lib/internal/worker.js: its main-thread chdir wrapper either chdirs and then bumps the workers' counter
// (coherent, nodejs/node#61664) or bumps first (racy). Every installed Node major is asked, and must agree.
describe('runtimeWorkerCwdCoherent agrees with the Node binary it runs on', () => {
  const nodes = ['node', 'node22', 'node24', 'node26'].map((name) => [
    name,
    name === 'node' ? process.execPath : path.join(packageRoot, '..', '..', 'node_modules', name, 'bin', 'node'),
  ]);
  it.each(nodes)('%s', async (_name, node) => {
    if (!fs.existsSync(node as string)) return expect.fail(`${node} is missing: run npm ci`);
    const script = `import { runtimeWorkerCwdCoherent } from ${JSON.stringify(core)};
const source = process.binding('natives')['internal/worker'];
const wrapper = /process\\.chdir = function\\(path\\) \\{\\s*(\\S+)/.exec(source);
console.log(JSON.stringify({ version: process.version, gate: runtimeWorkerCwdCoherent, chdirFirst: wrapper?.[1] }));`;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(node as string, ['--no-deprecation', '--input-type=module', '-e', script], (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const { version, gate, chdirFirst } = JSON.parse(output);
    expect(chdirFirst, version).toMatch(/^(originalChdir\(path\);|Atomics\.?[Aa]dd\(cwdCounter,)$/);
    expect(gate, version).toBe(chdirFirst === 'originalChdir(path);');
  });
});
