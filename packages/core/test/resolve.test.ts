import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveFrom } from '../src/index.js';
import { resolverFor } from '../src/resolve.js';
import { name, posixCwd, posixPiece, posixSegment, unicode } from './generators.js';
import { packageRoot, scratchDir } from './helpers.js';

type Env = Record<string, string | undefined>;

/**
 * What `platform.resolve(...segments)` itself returns in a process whose cwd is `cwd` and whose environment is `env`.
 * A Windows cwd cannot be made on Linux, so for this one synchronous call the reference reads them from a swapped
 * `process.cwd` and `process.env`: those are the inputs path.win32.resolve reads (`=D:` names cannot be set in a real
 * POSIX environment). Both are put back before anything else runs.
 */
function reference(platform: path.PlatformPath, cwd: string, segments: string[], env: Env = {}): string {
  const { cwd: savedCwd, env: savedEnv } = process;
  process.cwd = () => cwd;
  process.env = env as NodeJS.ProcessEnv;
  try {
    return platform.resolve(...segments);
  } finally {
    process.cwd = savedCwd;
    process.env = savedEnv;
  }
}

// Windows: every root path.win32.resolve knows, both separators, drive-relative paths, and the cwd shapes Windows
// gives: drive letters (either case), UNC shares (at their root too), \\?\ long paths, \\.\ device paths.
const win32Piece = fc.oneof(
  fc.constantFrom('.', '..', '', 'src', 'a:b', 'CON', 'nul.txt', '.hidden', '...', 'a..', ...unicode),
  fc.string({ maxLength: 5 }),
  fc.stringMatching(/^[a-z.:]{1,4}$/),
);
const win32Root = fc.constantFrom(
  '',
  '',
  '',
  '\\',
  '/',
  'C:',
  'c:',
  'D:',
  'd:',
  'E:',
  'C:\\',
  'd:/',
  'D:\\',
  '\\\\srv\\share\\',
  '//srv/share/',
  '\\\\srv\\share',
  '\\\\?\\C:\\',
  '\\\\?\\UNC\\srv\\share\\',
  '\\\\.\\D:\\',
  '\\\\',
  '\\\\srv',
);
const win32Segment = fc
  .tuple(
    win32Root,
    fc.array(win32Piece, { maxLength: 4 }),
    fc.constantFrom('\\', '/', '\\\\', '/./', '\\..\\'),
    fc.constantFrom('', '\\', '/'),
  )
  .map(([root, parts, sep, trailing]) => `${root}${parts.join(sep)}${trailing}`);
const win32Cwd = fc
  .tuple(
    fc.constantFrom(
      'C:\\',
      'c:\\',
      'D:\\',
      '\\\\srv\\share\\',
      '\\\\?\\C:\\',
      '\\\\?\\UNC\\srv\\share\\',
      '\\\\.\\E:\\',
    ),
    fc.array(name, { maxLength: 3 }),
  )
  .map(([root, parts]) => {
    if (parts.length > 0) return `${root}${parts.join('\\')}`;
    // A drive's root keeps its backslash ("C:\\"); a share's root does not ("\\\\srv\\share"), as libuv returns them.
    return /^[a-z]:\\$/i.test(root) ? root : root.slice(0, -1);
  });
// Other drives' cwds, as cmd.exe and libuv keep them in the environment ("=D:"), sometimes odd.
const win32Env = fc.dictionary(
  fc.constantFrom('=C:', '=D:', '=d:', '=E:'),
  fc.constantFrom('C:\\c', 'D:\\dd\\x', 'd:\\lower', 'E:\\', 'D:rel', '\\\\srv\\share\\x', 'X:\\elsewhere', ''),
  { maxKeys: 3 },
);

describe('resolveFrom on POSIX', () => {
  it('equals path.posix.resolve byte for byte over 100,000 generated cases', () => {
    fc.assert(
      fc.property(posixCwd, fc.array(posixSegment, { maxLength: 5 }), (cwd, segments) => {
        expect(resolveFrom(cwd, segments, path.posix)).toBe(reference(path.posix, cwd, segments));
      }),
      { numRuns: 100_000 },
    );
  });

  it('takes the running system as the default platform', () => {
    fc.assert(
      fc.property(posixCwd, fc.array(posixSegment, { maxLength: 3 }), (cwd, segments) => {
        expect(resolveFrom(cwd, segments)).toBe(reference(path, cwd, segments));
      }),
      { numRuns: 2_000 },
    );
  });

  it("gives every provider a resolve that equals this system's path.resolve (with its fast two-name call)", () => {
    const twoNames = fc.tuple(posixPiece, posixPiece);
    const segments = fc.oneof(fc.array(posixSegment, { maxLength: 4 }), twoNames, fc.tuple(posixSegment, posixSegment));
    fc.assert(
      fc.property(posixCwd, segments, (cwd, list) => {
        expect(resolverFor(() => cwd)(...list)).toBe(reference(path, cwd, list));
      }),
      { numRuns: 50_000 },
    );
  });

  it('with anyCwd, answers what path.resolve gives for any process.cwd() answer, asking as often as it asks', () => {
    // What a test's fake of process.cwd can answer: the OS's kind of path, or '', 'rel', '/a//b/', '/a/./b', 42 ...
    const oddAnswer = fc.oneof(
      fc.constantFrom('', '.', './', 'rel', 'rel/dir/', '../x', '/a//b', '/a/', '/a/./b', '/a/../b', '//', 42, null),
      posixSegment,
    );
    const segments = fc.oneof(fc.array(posixSegment, { maxLength: 4 }), fc.tuple(posixPiece, posixPiece));
    const outcome = (run: () => string) => {
      try {
        return run();
      } catch (error) {
        return `threw ${(error as { code?: string }).code}`;
      }
    };
    fc.assert(
      fc.property(fc.oneof(posixCwd, oddAnswer), segments, (answer, list) => {
        const saved = process.cwd;
        let asked = 0;
        process.cwd = () => {
          asked += 1;
          return answer as string;
        };
        try {
          const want = outcome(() => path.resolve(...list));
          const wantAsked = asked;
          asked = 0;
          const got = outcome(() => resolverFor(() => process.cwd(), { anyCwd: true })(...list));
          // A non-string is handed to the runtime's own, which asks once more.
          expect([got, typeof answer === 'string' ? asked : wantAsked]).toEqual([want, wantAsked]);
        } finally {
          process.cwd = saved;
        }
      }),
      { numRuns: 20_000 },
    );
  });

  it('keeps one resolve right while its cwd changes between calls (the joined prefix follows the cwd)', () => {
    const call = fc.tuple(fc.constantFrom('/', '/w', '/w/x', '/v'), fc.tuple(name, name));
    fc.assert(
      fc.property(fc.array(call, { minLength: 2, maxLength: 8 }), (calls) => {
        let cwd = '';
        const resolve = resolverFor(() => cwd);
        for (const [next, list] of calls) {
          cwd = next;
          expect(resolve(...list)).toBe(reference(path, cwd, list));
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it.each([
    ['/w', ['src', 'index.ts'], '/w/src/index.ts'],
    ['/', ['src', 'index.ts'], '/src/index.ts'],
    ['/', ['src'], '/src'],
    ['/', [], '/'],
    ['/w', [], '/w'],
    ['/w', ['', 'a', ''], '/w/a'],
    ['/w', ['a/', 'b'], '/w/a/b'],
    ['/w', ['a', '/abs', 'b'], '/abs/b'],
    ['/w/x', ['..', 'y'], '/w/y'],
    ['/w/x', ['.', '..'], '/w'],
    ['/w', ['./a//b/.'], '/w/a/b'],
    ['/w', ['.a', 'b/.c'], '/w/.a/b/.c'],
  ])('%s + %j is %s', (cwd, segments, expected) => {
    expect(resolveFrom(cwd, segments, path.posix)).toBe(expected);
    expect(reference(path.posix, cwd, segments)).toBe(expected);
  });
});

describe('resolveFrom on Windows', () => {
  it('equals path.win32.resolve byte for byte over 100,000 generated cases', () => {
    fc.assert(
      fc.property(win32Cwd, fc.array(win32Segment, { maxLength: 4 }), win32Env, (cwd, segments, env) => {
        expect(resolveFrom(cwd, segments, path.win32, env)).toBe(reference(path.win32, cwd, segments, env));
      }),
      { numRuns: 100_000 },
    );
  });

  it.each([
    ['C:\\w', ['src', 'index.ts'], {}, 'C:\\w\\src\\index.ts'],
    ['C:\\', ['src'], {}, 'C:\\src'],
    ['C:\\w', ['src/a', 'b\\..\\c'], {}, 'C:\\w\\src\\a\\c'],
    ['C:\\w', [], {}, 'C:\\w'],
    ['C:\\w', ['\\abs', 'x'], {}, 'C:\\abs\\x'],
    ['\\\\srv\\share', ['src'], {}, '\\\\srv\\share\\src'],
    ['\\\\srv\\share\\w', ['..', '..', 'x'], {}, '\\\\srv\\share\\x'],
    ['\\\\?\\C:\\long', ['src'], {}, '\\\\?\\C:\\long\\src'],
    // Another drive: its own cwd from the environment, else its root.
    ['C:\\w', ['D:src'], { '=D:': 'D:\\dd' }, 'D:\\dd\\src'],
    ['C:\\w', ['D:src'], {}, 'D:\\src'],
    ['C:\\w', ['C:src'], { '=C:': 'C:\\elsewhere' }, 'C:\\elsewhere\\src'],
    ['C:\\w', ['d:\\x', 'E:y'], {}, 'E:\\y'],
    // Node's own oddity: a UNC cwd and no "=D:" leave a drive-relative path relative.
    ['\\\\srv\\share', ['D:src', '..', 'x'], {}, 'D:x'],
  ])('%s + %j with %j is %s', (cwd, segments, env: Env, expected) => {
    expect(resolveFrom(cwd, segments, path.win32, env)).toBe(expected);
    expect(reference(path.win32, cwd, segments, env)).toBe(expected);
  });
});

describe('resolveFrom with bad arguments', () => {
  it.each([path.posix, path.win32])("gives the platform's resolve its own errors for non-strings", (platform) => {
    const bad = ['a', 42] as unknown as string[];
    let original: unknown;
    try {
      platform.resolve(...bad);
    } catch (error) {
      original = error;
    }
    expect(original).toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    const cwd = platform === path.win32 ? 'C:\\w' : '/w';
    expect(() => resolveFrom(cwd, bad, platform, {})).toThrow((original as Error).message);
    expect(() => resolveFrom(cwd, bad, platform, {})).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
  });
});

describe("a provider's resolve with unusual arguments", () => {
  /** What `fn` returns, or the code and message it throws. */
  const outcome = (fn: () => string) => {
    try {
      return { value: fn() };
    } catch (error) {
      return { code: (error as { code?: string }).code, message: (error as Error).message };
    }
  };
  it.each([
    [['a', 'b', undefined]],
    [['a', undefined]],
    [[undefined, 'b']],
    [['a', 42]],
    [[null, 'a']],
    [['a', {}]],
    [[new String('a'), 'b']],
    [['a']],
    [['a', 'b', 'c']],
    [[]],
  ])('%j: what path.resolve gives, its errors included', (list) => {
    const segments = list as unknown as string[];
    const resolve = resolverFor(() => '/w');
    const expected = outcome(() => reference(path, '/w', segments));
    expect(outcome(() => resolve(...segments))).toEqual(expected);
    // Called detached and through apply, as a callback would call it.
    expect(outcome(() => resolve.apply(undefined, segments))).toEqual(expected);
  });
});

describe("on Bun and Deno: a provider's resolve and resolveFrom equal the runtime's own path.resolve", () => {
  // The reference above swaps process.cwd, which Bun's path.resolve does not read: each runtime runs the property in
  // real directories instead (test/fixtures/resolve-here.mjs, against the built package), lone surrogates included.
  const bin = (name: string) => path.join(packageRoot, '..', '..', 'node_modules', '.bin', name);
  const script = fileURLToPath(new URL('./fixtures/resolve-here.mjs', import.meta.url));
  it.each([
    ['bun', []],
    ['deno', ['run', '-A']],
  ])(
    '%s, 20,000 generated cases in each of three directories',
    async (runtime, flags) => {
      const scratch = scratchDir('cwdkit-resolve-');
      const unicodeDir = path.join(scratch, 'ünï 日本');
      fs.mkdirSync(unicodeDir);
      try {
        const output = await new Promise<string>((resolve, reject) => {
          const args = [...flags, script, '/', scratch, unicodeDir];
          execFile(bin(runtime), args, { cwd: packageRoot, timeout: 120_000 }, (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stdout}${stderr}`)) : resolve(stdout),
          );
        });
        expect(JSON.parse(output.trim().split('\n').at(-1) as string)).toEqual({ cases: 60_000 });
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
    150_000,
  );
});
