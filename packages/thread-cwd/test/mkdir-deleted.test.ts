// A worker whose cwd was deleted: a recursive mkdir of an absolute path still creates it, and an invalid `recursive`
// is still refused, as in a process whose real cwd was deleted (found by Node's own test-fs-mkdir.js, see node-tests).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { findRuntime } from '@cwdkit/conformance';
import { describe, expect, it } from 'vitest';
import { MAJORS } from './majors.js';

const script = path.join(import.meta.dirname, 'fixtures', 'mkdir-deleted.cjs');
const nodes = MAJORS.flatMap((name) => {
  const binary = findRuntime(name);
  return binary ? [[name, binary] as const] : [];
});

describe.skipIf(nodes.length === 0 || process.platform !== 'linux')('mkdir in a deleted cwd', () => {
  it.each(nodes)('%s: the same answers in a worker after thread-cwd as in a process really there', (_name, node) => {
    const run = (mode: string) => JSON.parse(execFileSync(node, [script, mode], { encoding: 'utf8' }));
    const real = run('real');
    expect(real).toEqual({
      absolute: 'a', // the first directory it made
      made: true,
      invalid: 'ERR_INVALID_ARG_TYPE',
      relative: 'ENOENT',
      relativeAsync: 'ERR_INVALID_ARG_TYPE',
    });
    expect(run('thread')).toEqual(real);
  });
});
