// The flag forms a user adopts cwdkit with, in a project installed as from tarballs (file: specs, copied packages):
// children started in other directories, Deno's --preload of a local install, and the advice `cwdkit which` gives.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, packageRoot, run, scratchDir, writeFile } from './helpers.js';

const node = process.execPath;
const repository = path.resolve(packageRoot, '../..');
const deno = path.join(repository, 'node_modules/.bin/deno');
const bun = path.join(repository, 'node_modules/.bin/bun');
let app: string; // cwdkit, @cwdkit/core and the real @cwdkit/sab-atomics, installed from file: specs
let published: string; // the same, as installed from a registry (versions in package.json)
const cli = () => path.join(app, 'node_modules/cwdkit/bin/cwdkit.js');
/** What `cwdkit flag` names, and Deno's "deno" condition of cwdkit/register: the ES module. */
const registerFile = () => path.join(app, 'node_modules/cwdkit/dist/register.mjs');
const denoRegisterFile = registerFile;
/** The CommonJS form (`--require cwdkit/register`), which works on Deno too. */
const cjsRegisterFile = () => path.join(app, 'node_modules/cwdkit/dist/register.cjs');

/** A project as npm installs it: the packages copied, the `cwdkit` bin linked, `app.js` printing what is installed. */
function project(spec: (tarball: string) => string): string {
  const root = scratchDir('cwdkit-flags-');
  copyPackage(root);
  for (const part of ['dist', 'package.json']) {
    const from = path.join(repository, 'packages/sab-atomics', part);
    fs.cpSync(from, path.join(root, 'node_modules/@cwdkit/sab-atomics', part), { recursive: true });
  }
  fs.mkdirSync(path.join(root, 'node_modules/.bin'));
  fs.symlinkSync('../cwdkit/bin/cwdkit.js', path.join(root, 'node_modules/.bin/cwdkit'));
  writeFile(path.join(root, 'package.json'), {
    name: 'app',
    private: true,
    type: 'module',
    dependencies: { cwdkit: spec('cwdkit-0.0.0.tgz'), '@cwdkit/sab-atomics': spec('cwdkit-sab-atomics-0.0.0.tgz') },
  });
  writeFile(path.join(root, 'app.js'), "import { installed } from 'cwdkit';\nconsole.log(installed() ?? 'nothing');\n");
  return root;
}

beforeAll(() => {
  app = project((tarball) => `file:${tarball}`);
  published = project(() => '0.0.0');
});
afterAll(() => {
  for (const root of [app, published]) fs.rmSync(root, { recursive: true, force: true });
});

/** The lines of the first ```sh block after `heading` in a README of the repository, comments kept. */
function shellLines(readme: string, heading: string): string[] {
  const text = fs.readFileSync(path.join(repository, readme), 'utf8');
  const block = text.slice(text.indexOf(heading)).match(/```sh\n([\s\S]*?)```/)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '');
}

describe.each([
  ['packages/cwdkit/README.md', '## One flag'],
  ['README.md', '## Use it'],
])('%s, "%s": each command as written', (readme, heading) => {
  const lines = shellLines(readme, heading);
  it('shows the form that survives children first', () => {
    expect(lines[0]).toMatch(/^NODE_OPTIONS="\$\(npx cwdkit flag\)" node app\.js/);
  });
  // In the file: install, Deno cannot resolve npm: specifiers (the README says so, and gives the path form).
  it.each(
    lines.flatMap((line) => [
      ['registry', line] as const,
      ...(line.includes('npm:') ? [] : [['file:', line] as const]),
    ]),
  )('a %s install: %s', async (install, line) => {
    const env = { PATH: `${path.join(repository, 'node_modules/.bin')}:${path.dirname(node)}:${process.env.PATH}` };
    const result = await run('sh', ['-c', line], { cwd: install === 'registry' ? published : app, env });
    expect(result).toEqual({ code: 0, stderr: '', stdout: 'sab-atomics\n' });
  });
});

/** What a child of `node` started in `cwd` under NODE_OPTIONS reports: the strategy installed in it, or its error. */
function child(nodeOptions: string, cwd: string): string {
  const index = pathToFileURL(path.join(app, 'node_modules/cwdkit/dist/index.js')).href;
  const code = 'import(process.argv[1]).then((cwdkit) => console.log(cwdkit.installed() ?? "nothing"))';
  try {
    return execFileSync(node, ['-e', code, index], {
      cwd,
      env: { ...process.env, CWDKIT_STRATEGY: '', NODE_OPTIONS: nodeOptions },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    return String((error as { stderr?: string }).stderr);
  }
}

describe('NODE_OPTIONS for children in any directory', () => {
  it('`cwdkit flag` prints --import with the file: URL of this install of cwdkit/register', async () => {
    const result = await run(node, [cli(), 'flag'], { cwd: app });
    expect(result).toEqual({ code: 0, stderr: '', stdout: `--import=${pathToFileURL(registerFile()).href}\n` });
  });

  it('a child started in os.tmpdir() under that flag starts and has the strategy installed; under the bare name it cannot start', async () => {
    const flag = (await run(node, [cli(), 'flag'], { cwd: app })).stdout.trim();
    expect(child(flag, app)).toBe('sab-atomics');
    expect(child(flag, os.tmpdir())).toBe('sab-atomics');
    // The form the README used to show first: resolved from the child's own cwd, where no cwdkit is installed.
    expect(child('--import=cwdkit/register', app)).toBe('sab-atomics');
    expect(child('--import=cwdkit/register', os.tmpdir())).toContain("Cannot find package 'cwdkit'");
  });
});

describe('Deno, installed from file: specs or tarballs', () => {
  const permissions = ['--allow-read', '--allow-env'];
  it('--preload of the register file works where --preload npm:cwdkit/register cannot find the package', async () => {
    for (const preload of [
      './node_modules/cwdkit/dist/register.mjs',
      denoRegisterFile(),
      './node_modules/cwdkit/dist/register.cjs',
    ]) {
      const result = await run(deno, ['run', '--preload', preload, ...permissions, 'app.js'], { cwd: app });
      expect(result).toMatchObject({ code: 0, stdout: 'sab-atomics\n' });
    }
    // Deno's own limit (the README's reason for the path form): npm: specifiers need a registry install.
    const npm = await run(deno, ['run', '--preload', 'npm:cwdkit/register', ...permissions, 'app.js'], { cwd: app });
    expect(npm.code).not.toBe(0);
    expect(npm.stderr).toContain("Could not find a matching package for 'npm:cwdkit'");
  });
});

describe('`cwdkit which` advice', () => {
  it('on Node: says how to preload it; under the flag, it is installed and no line says to add the flag', async () => {
    const plain = await run(node, [cli(), 'which'], { cwd: app });
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toContain(
      'installed     nothing (to install it: node "$(npx cwdkit flag)" app.js (its workers too, wherever the app chdirs), or NODE_OPTIONS="$(npx cwdkit flag)" for child processes too)\n',
    );
    for (const flag of ['--import=cwdkit/register', `--import=${pathToFileURL(registerFile()).href}`]) {
      const under = await run(node, [cli(), 'which'], { cwd: app, env: { NODE_OPTIONS: flag } });
      expect(under.stderr).toBe('');
      expect(under.stdout).toContain('installed     sab-atomics\n');
      // sab-atomics in a cold worker reads the OS each call, which made the old text advise the flag in use.
      expect(under.stdout).toMatch(/^cold workers {2}[\d.]+ ns/m);
      expect(under.stdout).not.toMatch(/--import|--preload/);
    }
  });

  it('on Deno: says to --preload (never --import), and under --preload, that it is installed', async () => {
    const plain = await run(deno, ['run', '--allow-read', '--allow-env', cli(), 'which'], { cwd: app });
    expect(plain.stderr).toBe('');
    const installedLine = plain.stdout.split('\n').find((line) => line.startsWith('installed'));
    expect(installedLine).toBe(
      `installed     nothing (to install it: deno run --preload npm:cwdkit/register, or --preload ${denoRegisterFile()} from a file: or tarball install)`,
    );
    expect(plain.stdout).not.toContain('--import');
    for (const preload of [denoRegisterFile(), cjsRegisterFile()]) {
      const under = await run(deno, ['run', '--preload', preload, '--allow-read', '--allow-env', cli(), 'which'], {
        cwd: app,
      });
      expect(under.stderr).toBe('');
      expect(under.stdout).toContain('installed     sab-atomics\n');
    }
  });

  it('on Bun: says to --preload, and under --preload, that it is installed', async () => {
    const plain = await run(bun, [cli(), 'which'], { cwd: app });
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toContain('installed     nothing (to install it: bun --preload cwdkit/register)\n');
    const under = await run(bun, ['--preload', 'cwdkit/register', cli(), 'which'], { cwd: app });
    expect(under.stderr).toBe('');
    expect(under.stdout).toContain('installed     sab-atomics\n');
    expect(under.stdout).not.toMatch(/--import|--preload/);
  });

  it('on Deno without --allow-ffi: native is reported skipped for want of FFI permission', async () => {
    // The workspace has the real @cwdkit/native, with its addon built.
    const args = ['run', '--allow-read', '--allow-env', path.join(packageRoot, 'bin/cwdkit.js'), 'which', '--json'];
    const denied = JSON.parse((await run(deno, args, { cwd: packageRoot })).stdout);
    expect(denied.strategy).toBe('sab-atomics');
    expect(denied.skipped).toEqual([
      {
        request: 'native',
        code: 'ERR_CWDKIT_STRATEGY_LOAD_FAILED',
        message: expect.stringMatching(
          /^The cwdkit strategy "native" failed to load: Deno did not grant the permission it needs: Requires ffi access to .*--allow-ffi/,
        ),
      },
    ]);
    const granted = JSON.parse(
      (await run(deno, ['run', '--allow-ffi', ...args.slice(1)], { cwd: packageRoot })).stdout,
    );
    expect([granted.strategy, granted.skipped]).toEqual(['native', []]);
  });
});
