// The generators of the resolve property tests, shared with the tests that run them against an installed path.resolve
// (packages/cwdkit/test/install-resolve.test.ts).
import fc from 'fast-check';

// Lone surrogates too (Bun's path functions turn them into U+FFFD, Node's and Deno's keep them), and a pair.
export const unicode = ['ünï', '日本', '\u{1F600}', 'a b', '\ud800', 'a\udfffb', '\udc00\ud800', '\ud83d'];

// POSIX: pieces that exercise every branch of the fast path and of path.resolve's normalisation.
export const posixPiece = fc.oneof(
  fc.constantFrom('.', '..', '', '/', '//', 'src', '.hidden', '..a', 'a..', '...', 'a\\b', 'C:', ...unicode),
  fc.string({ maxLength: 6 }),
  fc.stringMatching(/^[a-z.]{1,4}$/),
);
export const posixSegment = fc
  .tuple(fc.array(posixPiece, { maxLength: 5 }), fc.constantFrom('/', '//', '/./', '/../'), fc.boolean(), fc.boolean())
  .map(([parts, sep, leading, trailing]) => `${leading ? '/' : ''}${parts.join(sep)}${trailing ? '/' : ''}`);
export const name = fc.stringMatching(/^[a-zA-Z0-9 ._ü-]{1,8}$/).filter((s) => s !== '.' && s !== '..');
// A cwd as getcwd returns it: absolute, normalized, "/" included.
export const posixCwd = fc.array(name, { maxLength: 4 }).map((parts) => `/${parts.join('/')}`);

/** Argument lists for path.resolve: any segments, two pieces (the fast two-name call and its near misses), or two segments. */
export const posixArguments = fc.oneof(
  fc.array(posixSegment, { maxLength: 4 }),
  fc.tuple(posixPiece, posixPiece),
  fc.tuple(posixSegment, posixSegment),
);
