// Runtime coherence (trap 9): after provider.chdir() returns, the runtime's own answers on that thread agree with the
// OS, installed or not, and again after uninstall(). Code that never heard of cwdkit must not get a wrong path.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { install } from 'cwdkit';
import type { CheckContext } from '../context.js';
import { runtimeView } from '../runtime-view.js';
import type { Check } from './support.js';

const deno = (globalThis as { Deno?: { chdir(directory: string): void } }).Deno;
let imports = 0;

/** A directory holding a marker file and a marker module, both naming the directory. */
function markedDir(context: CheckContext, name: string): string {
  const directory = context.dir(name);
  fs.writeFileSync(path.join(directory, 'marker.txt'), directory);
  fs.writeFileSync(path.join(directory, 'marker.mjs'), `export default ${JSON.stringify(directory)};\n`);
  return directory;
}

/** process.cwd(), Deno.cwd(), path.resolve, fs.realpathSync, a relative fs read and a relative import() agree. */
async function assertRuntimeAgrees(expected: string, when: string): Promise<void> {
  const view = runtimeView();
  assert.equal(view.os, expected, `${when}: the OS cwd`);
  assert.equal(view.processCwd, expected, `${when}: process.cwd()`);
  if (view.denoCwd !== undefined) assert.equal(view.denoCwd, expected, `${when}: Deno.cwd()`);
  assert.equal(view.resolved, path.join(expected, 'x'), `${when}: path.resolve('x')`);
  assert.equal(view.realpath, expected, `${when}: fs.realpathSync('.')`);
  assert.equal(fs.readFileSync('marker.txt', 'utf8'), expected, `${when}: a relative fs read`);
  // The runtime turns the relative path into a URL against its own cwd; the query defeats the module cache.
  const marker = (await import(`${pathToFileURL('marker.mjs').href}?${imports++}`)) as { default: string };
  assert.equal(marker.default, expected, `${when}: a relative import()`);
}

export const runtimeCoherenceChecks: readonly Check[] = [
  {
    title: "after chdir(), the runtime's own process.cwd(), path.resolve, fs and import() agree with the OS",
    async run(context) {
      const provider = context.provider();
      const [parent, child] = [markedDir(context, 'coherent'), markedDir(context, 'coherent/child')];
      provider.chdir(parent);
      await assertRuntimeAgrees(parent, 'after provider.chdir(absolute)');
      provider.chdir('child');
      await assertRuntimeAgrees(child, 'after provider.chdir(relative)');
      provider.chdir('..');
      await assertRuntimeAgrees(parent, "after provider.chdir('..')");
    },
  },
  {
    title: "installed, and after uninstall(), the runtime's own answers agree with the OS",
    async run(context) {
      const provider = context.provider();
      const [a, b, c, d] = ['in-a', 'in-b', 'in-c', 'in-d'].map((name) => markedDir(context, name)) as string[];
      const uninstall = install(provider);
      try {
        process.chdir(a as string);
        await assertRuntimeAgrees(a as string, 'installed, after process.chdir');
        provider.chdir(b as string);
        await assertRuntimeAgrees(b as string, 'installed, after provider.chdir');
        if (deno) {
          deno.chdir(c as string);
          await assertRuntimeAgrees(c as string, 'installed, after Deno.chdir');
        }
      } finally {
        uninstall();
      }
      await assertRuntimeAgrees(deno ? (c as string) : (b as string), 'after uninstall()');
      process.chdir(d as string);
      await assertRuntimeAgrees(d as string, 'after uninstall(), a plain process.chdir');
    },
  },
];
