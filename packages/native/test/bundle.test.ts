// Bundlers: the real esbuild bundles an app that imports the package (ESM and CommonJS output), in a project outside
// the repository where the package is installed; Node runs the bundle. A bundle cannot hold the addon: it loads the
// installed package's, found from the bundle; where none is installed, the error says it was bundled and what to do.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, packageRoot, removeTree, repoModules, run, scratch } from './support.js';

const helperAddon = path.join(import.meta.dirname, 'helper', 'build', 'Release', 'chdir_helper.node');
let project: string;
let elsewhere: string;

beforeAll(() => {
  project = scratch();
  copyPackage(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  fs.writeFileSync(
    path.join(project, 'app.mjs'),
    `import { createProvider } from '@cwdkit/native';
const cwd = createProvider();
console.log(JSON.stringify({ cwd: cwd.cwd(), resolve: cwd.resolve('x') }));
`,
  );
  // Where the bundle is copied: no @cwdkit/native installed, and another package's addon in build/Release.
  elsewhere = scratch();
  fs.mkdirSync(path.join(elsewhere, 'build', 'Release'), { recursive: true });
  fs.copyFileSync(helperAddon, path.join(elsewhere, 'build', 'Release', 'chdir_helper.node'));
  fs.mkdirSync(path.join(elsewhere, 'out'));
});
afterAll(() => {
  removeTree(project);
  removeTree(elsewhere);
});

async function bundle(format: 'esm' | 'cjs'): Promise<string> {
  const file = path.join(project, 'out', `app.${format === 'esm' ? 'mjs' : 'cjs'}`);
  await build({
    entryPoints: [path.join(project, 'app.mjs')],
    absWorkingDir: project,
    bundle: true,
    platform: 'node',
    format,
    outfile: file,
    logLevel: 'silent',
  });
  return file;
}

/** Runs a bundle with Node from a directory that has nothing installed. */
async function runBundle(file: string) {
  const cwd = scratch();
  try {
    const result = await run(['sh', '-c', `cd "${cwd}" && exec "$0" "$1"`, process.execPath, file], 60_000);
    return { cwd, ...result };
  } finally {
    removeTree(cwd);
  }
}

describe.each(['esm', 'cjs'] as const)('esbuild --bundle --platform=node, %s output', (format) => {
  it("the bundle loads the installed package's addon, found from where the bundle is", async () => {
    const file = await bundle(format);
    expect(fs.readFileSync(file, 'utf8')).toContain('ERR_CWDKIT_NATIVE_UNAVAILABLE'); // the package is in the bundle
    const { cwd, status, stdout, stderr } = await runBundle(file);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ cwd, resolve: path.join(cwd, 'x') });
  });

  it('with no package installed where the bundle runs: says it was bundled and to mark it external, loads nothing else', async () => {
    const file = await bundle(format);
    const copy = path.join(elsewhere, 'out', path.basename(file));
    fs.copyFileSync(file, copy);
    const { status, stderr } = await runBundle(copy);
    expect(status).toBe(1);
    expect(stderr).toContain('ERR_CWDKIT_NATIVE_UNAVAILABLE');
    expect(stderr).toContain(`@cwdkit/native was bundled into ${copy}`);
    expect(stderr).toContain('--external:@cwdkit/native');
    expect(stderr).not.toContain('no prebuilt binary'); // not the advice to install a compiler
  });
});

describe("the README's fallback in a bundle (a dynamic import in a try/catch, then strategy objects)", () => {
  // The README's block as written, and one line that says what it chose.
  const readme = fs.readFileSync(path.join(packageRoot, 'README.md'), 'utf8');
  const example = /import it dynamically:\n\n```js\n([^`]*)```/.exec(readme)?.[1];

  it('picks native where the package is installed, and sab-atomics where the bundle finds none', async () => {
    expect(example).toContain("await import('@cwdkit/native')");
    const source = path.join(project, 'fallback.mjs');
    fs.writeFileSync(source, `${example}console.log(provider.strategy);\n`);
    const file = path.join(project, 'out', 'fallback.mjs');
    // cwdkit and sab-atomics from the workspace; native from the project, where it is installed.
    await build({
      entryPoints: [source],
      absWorkingDir: project,
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: file,
      logLevel: 'silent',
      nodePaths: [repoModules],
    });
    const here = await runBundle(file);
    expect(here.stderr).toBe('');
    expect(here.stdout).toBe('native\n');
    const copy = path.join(elsewhere, 'out', 'fallback.mjs');
    fs.copyFileSync(file, copy);
    const there = await runBundle(copy);
    expect(there.stderr).toBe('');
    expect(there.stdout).toBe('sab-atomics\n');
  });
});
