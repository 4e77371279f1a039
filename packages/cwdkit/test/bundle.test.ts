// Bundlers: real esbuild, ESM and CommonJS output, apps in a fresh project (the built packages copied in), run by Node.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, packageRoot, run, scratchDir, writeFile } from './helpers.js';

let project: string;

beforeAll(() => {
  project = scratchDir('cwdkit-bundle-');
  copyPackage(project);
  for (const name of ['sab-atomics', 'naive']) {
    for (const part of ['dist', 'package.json']) {
      fs.cpSync(path.join(packageRoot, '..', name, part), path.join(project, 'node_modules/@cwdkit', name, part), {
        recursive: true,
      });
    }
  }
  writeFile(path.join(project, 'package.json'), { name: 'app', private: true });
  writeFile(
    path.join(project, 'strategy-only.mjs'),
    `import { createProvider } from '@cwdkit/sab-atomics';
const cwd = createProvider();
console.log(JSON.stringify({ strategy: cwd.strategy, cwd: cwd.cwd(), resolve: cwd.resolve('x') }));
`,
  );
  writeFile(
    path.join(project, 'with-object.mjs'),
    `import sabAtomics from '@cwdkit/sab-atomics';
import { createCwdProvider, createCwdProviderSync, install, installed } from 'cwdkit';
// No top-level await: the CommonJS output cannot have one.
createCwdProvider({ strategy: sabAtomics }).then((cwd) => {
  const uninstall = install(cwd);
  console.log(JSON.stringify({
    strategy: cwd.strategy,
    sync: createCwdProviderSync({ strategy: [sabAtomics] }).strategy,
    installed: installed(),
    cwd: process.cwd(),
  }));
  uninstall();
});
`,
  );
  writeFile(
    path.join(project, 'with-name.mjs'),
    `import { createCwdProvider } from 'cwdkit';
createCwdProvider({ strategy: 'sab-atomics' }).then(
  () => console.log(JSON.stringify({ loaded: true })),
  (error) => console.log(JSON.stringify({ code: error.code, message: error.message })),
);
`,
  );
  // A CommonJS entry (or a CommonJS library of the app) that require()s cwdkit: the bundler takes cwdkit's .cjs build.
  writeFile(
    path.join(project, 'required.cjs'),
    `const { createCwdProviderSync, installed } = require('cwdkit');
const sabAtomics = require('@cwdkit/sab-atomics');
let named;
try {
  createCwdProviderSync({ strategy: 'sab-atomics' });
} catch (error) {
  named = error.code;
}
console.log(JSON.stringify({ installed: installed() ?? null, object: createCwdProviderSync({ strategy: sabAtomics }).strategy, named }));
`,
  );
});
afterAll(() => {
  fs.rmSync(project, { recursive: true, force: true });
});

// What esbuild's users add so that CommonJS code in an ES module bundle can require() builtins (it has no require).
const requireBanner = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

async function bundle(entry: string, format: 'esm' | 'cjs'): Promise<{ file: string; text: string }> {
  const name = path.basename(entry).replace(/\.[cm]js$/, '');
  const file = path.join(project, 'out', `${name}.${format === 'esm' ? 'mjs' : 'cjs'}`);
  await build({
    entryPoints: [path.join(project, entry)],
    absWorkingDir: project,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format,
    outfile: file,
    logLevel: 'silent',
    ...(format === 'esm' && entry.endsWith('.cjs') ? { banner: { js: requireBanner } } : {}),
  });
  return { file, text: fs.readFileSync(file, 'utf8') };
}

/** Runs a bundle from a folder with no node_modules, so that nothing outside the bundle can be loaded. */
async function runBundle(file: string) {
  const elsewhere = scratchDir('cwdkit-bundle-run-');
  try {
    const copy = path.join(elsewhere, path.basename(file));
    fs.copyFileSync(file, copy);
    const result = await run(process.execPath, [copy], { cwd: elsewhere });
    expect(result.stderr).toBe('');
    return { dir: elsewhere, output: JSON.parse(result.stdout) };
  } finally {
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
}

describe.each(['esm', 'cjs'] as const)('esbuild, %s output', (format) => {
  it('an app that imports one strategy runs, and pulls in no config loader and no createRequire', async () => {
    const { file, text } = await bundle('strategy-only.mjs', format);
    expect(text).not.toContain('createRequire(');
    expect(text).not.toMatch(/lilconfig|cwdkit\.config\.json|readJsonFile/);
    const { dir, output } = await runBundle(file);
    expect(output).toEqual({ strategy: 'sab-atomics', cwd: dir, resolve: path.join(dir, 'x') });
  });

  it('cwdkit bundled with a strategy object passed in works (async, sync, install)', async () => {
    const { file } = await bundle('with-object.mjs', format);
    const { dir, output } = await runBundle(file);
    expect(output).toEqual({ strategy: 'sab-atomics', sync: 'sab-atomics', installed: 'sab-atomics', cwd: dir });
  });

  it('cwdkit bundled, asked for a name: a clear error that says to pass the strategy object', async () => {
    const { file } = await bundle('with-name.mjs', format);
    const { output } = await runBundle(file);
    expect(output.code).toBe('ERR_CWDKIT_BUNDLED');
    expect(output.message).toContain('pass the object');
    expect(output.message).not.toContain('npm install');
  });

  it('a CommonJS entry that require()s cwdkit (its .cjs build) loads, and a name is the bundled error', async () => {
    const { file } = await bundle('required.cjs', format);
    const { output } = await runBundle(file);
    expect(output).toEqual({ installed: null, object: 'sab-atomics', named: 'ERR_CWDKIT_BUNDLED' });
  });
});
