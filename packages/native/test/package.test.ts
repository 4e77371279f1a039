import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ended, removeTree, run, scratch } from './support.js';

// The published package as a user without a C++ toolchain gets it: the packed tarball installed into a scratch
// project with no compiler, make or Python on PATH, with and without the prebuild that `npm pack` ships.
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const repoModules = path.join(packageRoot, '..', '..', 'node_modules');
const npmCli = fs.realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
const conformanceCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@cwdkit/conformance/package.json')),
  'dist',
  'cli.js',
);
const BUILD_MINUTES = 6; // prebuildify compiles the addon: minutes on a busy 2-core machine

let root: string;
let bin: string; // PATH for the user: node and sh, nothing that compiles
let dependencies: string[]; // tarballs of @cwdkit/core and the packages' own dependencies, from this checkout

function packIn(directory: string, destination: string): string {
  fs.mkdirSync(destination, { recursive: true });
  const name = execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', destination], {
    cwd: directory,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'], // npm's notices
  });
  return path.join(destination, name.trim().split('\n').at(-1) as string);
}

/** A clean environment: only PATH (no compiler) and HOME (npm's configuration). */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: bin, HOME: process.env.HOME, ...extra };
}

function installInto(project: string, nativeTarball: string): Promise<Ended> {
  fs.mkdirSync(project);
  const manifest = { name: 'user-project', version: '1.0.0', private: true, allowScripts: { '@cwdkit/native': true } };
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify(manifest));
  const args = [
    'install',
    '--offline',
    '--no-audit',
    '--no-fund',
    '--foreground-scripts',
    ...dependencies,
    nativeTarball,
  ];
  return run(['sh', '-c', `cd "${project}" && exec node "${npmCli}" "$@"`, 'npm', ...args], 240_000, userEnv());
}

const probe = `import('@cwdkit/native').then(
  (native) => console.log(JSON.stringify({ cwd: native.createProvider().cwd() })),
  (error) => console.log(JSON.stringify({ code: error.code, message: error.message })),
);`;

describe('the packed package, installed where nothing can compile', () => {
  let withPrebuild: string;
  let withoutPrebuild: string;

  beforeAll(() => {
    root = scratch();
    bin = path.join(root, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(path.join(repoModules, 'node24', 'bin', 'node'), path.join(bin, 'node'));
    fs.symlinkSync('/bin/sh', path.join(bin, 'sh'));
    // Every dependency as a tarball, so that the install needs no registry (--offline).
    dependencies = [
      path.join(packageRoot, '..', 'core'),
      ...['lilconfig', 'node-addon-api', 'node-gyp-build'].map((name) => fs.realpathSync(path.join(repoModules, name))),
    ].map((directory) => packIn(directory, path.join(root, 'dependencies')));
    // A copy of the package sources, so that prebuildify's node-gyp rebuild never touches build/ under test.
    const copy = path.join(root, 'native');
    for (const entry of ['package.json', 'binding.gyp', 'src', 'dist', 'scripts', 'README.md']) {
      fs.cpSync(path.join(packageRoot, entry), path.join(copy, entry), { recursive: true });
    }
    fs.symlinkSync(repoModules, path.join(copy, 'node_modules'));
    withoutPrebuild = packIn(copy, path.join(root, 'without'));
    execFileSync('npm', ['run', 'prebuildify'], { cwd: copy, stdio: 'ignore' }); // what `npm pack` runs (prepack)
    withPrebuild = packIn(copy, path.join(root, 'with'));
  }, BUILD_MINUTES * 60_000);

  afterAll(() => removeTree(root));

  it('ships the linux-x64 prebuild in the tarball', () => {
    const listing = execFileSync('tar', ['tzf', withPrebuild], { encoding: 'utf8' });
    expect(listing).toContain('package/prebuilds/linux-x64/@cwdkit+native.node');
    expect(execFileSync('tar', ['tzf', withoutPrebuild], { encoding: 'utf8' })).not.toContain('prebuilds/');
  });

  it('with the prebuild: installs, loads, and passes the conformance suite (PREBUILDS_ONLY)', async () => {
    const project = path.join(root, 'user-with');
    const installed = await installInto(project, withPrebuild);
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);
    const entry = path.join(project, 'node_modules', '@cwdkit', 'native');
    expect(fs.existsSync(path.join(entry, 'build'))).toBe(false); // nothing was compiled
    const loaded = await run(['sh', '-c', `cd "${project}" && exec node -e "$0"`, probe], 60_000, userEnv());
    expect(JSON.parse(loaded.stdout), loaded.stderr).toEqual({ cwd: fs.realpathSync(project) });
    // node-gyp-build's PREBUILDS_ONLY: only prebuilds/ may answer.
    const strategy = pathToFileURL(path.join(entry, 'dist', 'index.js')).href;
    const suite = await run(
      ['node', conformanceCli, strategy],
      240_000,
      userEnv({ PREBUILDS_ONLY: '1', PATH: `${bin}` }),
    );
    const output = `${suite.stdout}${suite.stderr}`;
    expect(output, output).toMatch(/^[1-9]\d* passed, 0 failed, \d+ skipped$/m);
    expect(suite.status, output).toBe(0);
  }, 600_000);

  it('without it: the install still succeeds, and the import throws ERR_CWDKIT_NATIVE_UNAVAILABLE saying what to do', async () => {
    const project = path.join(root, 'user-without');
    const installed = await installInto(project, withoutPrebuild);
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);
    expect(installed.stdout + installed.stderr).toContain('ERR_CWDKIT_NATIVE_UNAVAILABLE'); // the install script said so
    const loaded = await run(['sh', '-c', `cd "${project}" && exec node -e "$0"`, probe], 60_000, userEnv());
    const result = JSON.parse(loaded.stdout);
    expect(result.code).toBe('ERR_CWDKIT_NATIVE_UNAVAILABLE');
    expect(result.message).toContain('npm rebuild @cwdkit/native');
    expect(result.message).toContain('"strategy": ["native", "sab-atomics"]');
  }, 300_000);
});
