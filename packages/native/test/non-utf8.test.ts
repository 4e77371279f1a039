// A cwd whose name is not UTF-8 (Linux allows any bytes but '/' and NUL). No JS string names such a directory: Node
// and Bun decode it with U+FFFD (a string that names another directory), Deno throws InvalidData. Every strategy,
// on every runtime, must throw the coded EILSEQ there, and still give valid names (U+FFFD itself is one) exactly.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, removeTree, run, runtimes, scratch } from './support.js';

const names: [string, Buffer, 'EILSEQ' | 'round trip'][] = [
  ['a stray byte', Buffer.from('6e75ff', 'hex'), 'EILSEQ'],
  ['an encoded lone surrogate', Buffer.from('eda080', 'hex'), 'EILSEQ'],
  ['an overlong "/"', Buffer.from('c0af', 'hex'), 'EILSEQ'],
  ['a cut sequence', Buffer.from('e282', 'hex'), 'EILSEQ'],
  ['U+FFFD itself', Buffer.from('efbfbd', 'hex'), 'round trip'],
  ['an accent', Buffer.from('café'), 'round trip'],
];

let root: string;
beforeAll(() => {
  root = scratch();
  for (const [, name] of names) {
    fs.mkdirSync(Buffer.concat([Buffer.from(`${root}/`), name, Buffer.from('/inner')]), { recursive: true });
  }
});
afterAll(() => removeTree(root));

/** The directory's printf format (octal escapes): sh enters it by its bytes, which no JS string can name. */
const printfFormat = (directory: Buffer) =>
  [...directory].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');

describe.each(runtimes)('a cwd whose name is not UTF-8, on %s', (_, command) => {
  it.skipIf(!command).each(names)(
    '%s: every strategy throws EILSEQ or gives the exact name',
    async (_, name, outcome) => {
      const directory = Buffer.concat([Buffer.from(`${root}/`), name]);
      const script = fixture('non-utf8.mjs');
      const shell = 'cd "$(printf "$1")" && shift && exec "$@"';
      const result = await run(
        ['/bin/sh', '-c', shell, 'sh', printfFormat(directory), ...(command ?? []), script, directory.toString('hex')],
        60_000,
      );
      expect(result.status, result.stderr).toBe(0);
      const results = JSON.parse(result.stdout.trim().split('\n').at(-1) as string) as Record<string, string>;
      expect(Object.keys(results)).toHaveLength(21);
      expect(results).toEqual(Object.fromEntries(Object.keys(results).map((what) => [what, outcome])));
    },
    90_000,
  );
});
