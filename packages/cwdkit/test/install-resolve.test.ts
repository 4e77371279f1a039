// install() replaces path.resolve with core's resolver: the runtime's own answers and errors for every input the
// resolve property tests generate (core's generators), checked in a real process of Node 20, Node 24, Bun and Deno.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posixArguments, posixCwd } from '../../core/test/generators.js';
import { fixtures, packageRoot, run, scratchDir } from './helpers.js';

const bin = path.join(packageRoot, '../../node_modules/.bin');
const seed = Date.now() | 0;
let scratch: string;
let cases: string;

beforeAll(() => {
  scratch = scratchDir('cwdkit-install-resolve-');
  cases = path.join(scratch, 'cases.json');
  // The same arbitraries as core's resolve tests, sampled once: a cwd and the arguments, and arguments alone for the
  // real directories. JSON keeps lone surrogates (escaped) should a generator make them.
  const generated = fc.sample(fc.tuple(posixCwd, posixArguments), { numRuns: 20_000, seed });
  const real = fc.sample(posixArguments, { numRuns: 3_000, seed: seed + 1 });
  fs.writeFileSync(cases, JSON.stringify({ generated, real }));
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

const clean = { cases: expect.any(Number), mismatches: [] };
const expected = (mode: string, named: boolean) => ({
  mode,
  generated: { cases: 20_000, mismatches: [] },
  hostile: clean,
  mapCallback: true,
  looksTheSame: { length: true, name: true },
  // Node brings ESM named imports in line (module.syncBuiltinESMExports()); Bun and Deno bind them once.
  reached: { replaced: true, posix: true, require: true, namespace: named, named },
  closed: { cases: 8, mismatches: [] },
  real: { cases: 9_000, mismatches: [] },
  restored: { resolve: true, descriptor: true, named: true, namespace: true, keptCopy: true },
});

describe.skipIf(process.platform === 'win32')('the installed path.resolve, for real', () => {
  it.each([
    ['Node 20', process.execPath, [], expected('reads process.cwd()', true)],
    [
      'Node 24',
      path.join(packageRoot, '../../node_modules/node24/bin/node'),
      [],
      expected('reads process.cwd()', true),
    ],
    // Bun's own path.resolve reads its native cache, not process.cwd(): the reference gets the cwd as a segment.
    ['Bun', path.join(bin, 'bun'), [], expected('cwd handed over', false)],
    ['Deno', path.join(bin, 'deno'), ['run', '-A'], expected('reads process.cwd()', false)],
  ] as const)('on %s: identical to the original over the generated cases', async (_runtime, command, args, want) => {
    const result = await run(command, [...args, path.join(fixtures, 'installed-resolve.mjs'), cases, scratch], {
      cwd: scratch,
    });
    expect(result.stderr, `seed ${seed}`).toBe('');
    expect(JSON.parse(result.stdout), `seed ${seed}`).toEqual(want);
  });
});
