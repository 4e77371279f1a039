// Every function node:fs, node:fs/promises (= fs.promises) and node:child_process export is either covered or on the
// reviewed list of those that take no path: a function a new Node adds fails here, on each Node major installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { findRuntime } from '@cwdkit/conformance';
import { coveredFunctions, enumerate, takesNoPath, uncovered } from '@cwdkit/thread-cwd';
import { describe, expect, it } from 'vitest';
import { EARLY_SURFACE } from '../src/early.js';
import { kernelSurface } from '../src/surface.js';
import { MAJORS } from './majors.js';

const probe = `import('@cwdkit/thread-cwd').then((m) => process.stdout.write(JSON.stringify({
  uncovered: m.uncovered(), count: m.enumerate().length })))`;

describe('the cover is complete', () => {
  it('on the Node running the tests', () => {
    expect(enumerate().length).toBeGreaterThan(100);
    expect(uncovered()).toEqual([]);
  });

  for (const name of MAJORS) {
    const node = findRuntime(name);
    it.skipIf(!node)(`on ${name}`, () => {
      const found = JSON.parse(execFileSync(node as string, ['-e', probe], { encoding: 'utf8' }));
      expect(found.count).toBeGreaterThan(100);
      expect(found.uncovered).toEqual([]);
    });
  }

  // Bun's node:fs has more (fs/promises.exists, fd forms in fs/promises): held against Bun's own surface.
  const bun = findRuntime('bun');
  it.skipIf(!bun)('on bun', () => {
    const found = JSON.parse(execFileSync(bun as string, ['-e', probe], { encoding: 'utf8' }));
    expect(found.count).toBeGreaterThan(100);
    expect(found.uncovered).toEqual([]);
  });

  it("the setup entry's early cover (its lists of names) puts a trampoline over each function kernel mode covers", () => {
    const table = kernelSurface(false).map((entry) => `${entry.module}.${entry.name}`);
    const early = Object.entries(EARLY_SURFACE).flatMap(([module, names]) => names.map((name) => `${module}.${name}`));
    expect(early.sort()).toEqual(table.sort());
  });

  it('names a function left out of the cover, and one left off the reviewed list', () => {
    const without = coveredFunctions.filter((entry) => !(entry.module === 'fs' && entry.name === 'readFileSync'));
    expect(uncovered(without)).toEqual(['fs.readFileSync']);
    const { 'fs.fstat': _, ...reviewed } = takesNoPath;
    expect(uncovered(coveredFunctions, reviewed)).toEqual(['fs.fstat']);
    // A function the next Node adds: unknown until reviewed.
    const future = [...enumerate(), { name: 'fs.readFileAtomicSync', fn: fs.readFileSync }];
    expect(uncovered(coveredFunctions, takesNoPath, future)).toEqual(['fs.readFileAtomicSync']);
  });

  it('lists no function twice, and reviews none it also covers', () => {
    const names = coveredFunctions.map((entry) => `${entry.module}.${entry.name}`);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => name in takesNoPath)).toEqual([]);
  });
});
