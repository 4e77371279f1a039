import path from 'node:path';
import { threadState } from './shared.js';

const SLASH = 47;
const BACKSLASH = 92;
const DOT = 46;
const COLON = 58;

/**
 * The platforms' own resolve functions, captured when core first loads on this thread, before install() can put a
 * resolver of ours in their place (trap 7: the fallbacks below calling path.resolve would then call themselves).
 * Shared by every copy of core (ESM and CJS), so that a copy loaded after install() still finds the originals.
 */
const { posix: posixResolve, win32: win32Resolve } = threadState('path-resolve', () =>
  Object.freeze({ posix: path.posix.resolve, win32: path.win32.resolve }),
);

/**
 * `path.posix` or `path.win32` (or `path` itself, which is one of them). Written out, not taken from @types/node: the
 * emitted types must not need it (and `path.PlatformPath` is gone from @types/node 26).
 */
export interface PathPlatform {
  readonly sep: string;
  resolve(...paths: string[]): string;
  normalize(path: string): string;
}

/**
 * Whether this runtime's path functions turn a lone surrogate into U+FFFD (Bun's work on UTF-8; Node's and Deno's keep
 * it). There a segment that is not well-formed is not plain: it goes to the runtime's own resolve, which replaces it.
 */
const replacesLoneSurrogates = path.posix.normalize('\ud800') !== '\ud800';

/** On such a runtime, whether `segment` holds a lone surrogate (isWellFormed is O(1) on a Latin-1 string). */
function illFormedHere(segment: string): boolean {
  return replacesLoneSurrogates && !(segment as string & { isWellFormed(): boolean }).isWellFormed();
}

/** A segment that path.posix.resolve would append unchanged: no leading, trailing or double slash, no `.` or `..`. */
function isPlainPosix(segment: string): boolean {
  // The common case, a name that neither starts with a dot nor holds a slash (indexOf costs less than a loop here).
  if (segment.length > 0 && segment.charCodeAt(0) !== DOT && segment.indexOf('/') === -1) return true;
  return hasPlainComponents(segment);
}

/** Whether `segment` from `start` on is names joined by single slashes, none of them "." or "..". */
function hasPlainComponents(segment: string, start = 0): boolean {
  const length = segment.length;
  for (let i = start; i <= length; i++) {
    if (i < length && segment.charCodeAt(i) !== SLASH) continue;
    const size = i - start;
    if (size === 0) return false;
    if (segment.charCodeAt(start) === DOT && (size === 1 || (size === 2 && segment.charCodeAt(start + 1) === DOT))) {
      return false;
    }
    start = i + 1;
  }
  return true;
}

/** resolverFor's options. */
export interface ResolverOptions {
  /**
   * cwd() may answer what the OS never would: it reads whatever process.cwd is, and a test's fake of it can answer
   * '/a/', '', 'rel' or 42. Such answers get what path.resolve gives for them, asking for the cwd once.
   */
  readonly anyCwd?: boolean;
}

/** The last answer found absolute and normalized, so that an unchanged cwd is checked by one comparison. */
let lastNormal: unknown;

/** Whether `cwd` is an absolute, normalized path on this platform, as the OS reports the cwd. */
function isNormalCwd(cwd: unknown): cwd is string {
  if (cwd === lastNormal) return true;
  if (typeof cwd !== 'string' || illFormedHere(cwd)) return false;
  const normal =
    path.sep === '\\'
      ? pendingDevice([cwd]) === COMPLETE && win32Resolve(cwd) === cwd
      : cwd.charCodeAt(0) === SLASH && (cwd.length === 1 || hasPlainComponents(cwd, 1));
  if (normal) lastNormal = cwd;
  return normal;
}

/**
 * path.posix.resolve(...segments) where process.cwd() answered `cwd`, which is not absolute and normalized (a test's
 * fake), as Node 20-26 and Deno compute it, asking for the cwd as often as they do: a fake made with
 * mockReturnValueOnce has answered. Node >= 22 and Deno read it first to return an absolute cwd as it is (resolve(),
 * resolve(''), resolve('.')), and again when it was not absolute. A non-string goes to the runtime's own, which asks
 * process.cwd() once more than it would.
 */
function resolveOddCwd(cwd: unknown, segments: readonly string[], again: () => unknown): string {
  const itself = segments.length === 0 || (segments.length === 1 && (segments[0] === '' || segments[0] === '.'));
  if (!returnsCwdAsIs || !itself || typeof cwd !== 'string') return resolveWithCwd(cwd, segments);
  return cwd.charCodeAt(0) === SLASH ? cwd : resolveWithCwd(again(), segments);
}

/** path.posix.resolve's general case, for relative segments (none absolute) and the cwd it read. */
function resolveWithCwd(cwd: unknown, segments: readonly string[]): string {
  if (typeof cwd !== 'string') return posixResolve(...segments);
  if (cwd.charCodeAt(0) === SLASH) return posixResolve(cwd, ...segments);
  // Relative: normalized, with no trailing slash, and '.' for nothing.
  const normal = path.posix.normalize([cwd, ...segments].filter((part) => part.length > 0).join('/') || '.');
  return normal.length > 1 && normal.charCodeAt(normal.length - 1) === SLASH ? normal.slice(0, -1) : normal;
}

/** path.posix.resolve for a process whose cwd is `cwd`. */
function resolvePosix(cwd: string, segments: readonly string[]): string {
  let result = cwd.length === 1 ? '' : cwd; // the root is "/", and "/" + "/src" must not make "//src"
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as unknown;
    // path.resolve itself, so that bad arguments get Node's exact errors.
    if (typeof segment !== 'string') return posixResolve(...segments);
    if (segment.length === 0) continue;
    if (!isPlainPosix(segment) || illFormedHere(segment)) return posixResolve(cwd, ...segments);
    result += `/${segment}`;
  }
  return result.length === 0 ? '/' : result;
}

function isSeparator(code: number): boolean {
  return code === SLASH || code === BACKSLASH;
}

/** A segment that path.win32.resolve would append unchanged: a name with no separator, no colon, not "." or "..". */
function isPlainWin32(segment: string): boolean {
  const length = segment.length;
  if (segment.charCodeAt(0) === DOT && (length === 1 || (length === 2 && segment.charCodeAt(1) === DOT))) return false;
  for (let i = 0; i < length; i++) {
    const code = segment.charCodeAt(i);
    if (code === SLASH || code === BACKSLASH || code === COLON) return false;
  }
  return true;
}

const UNC_ROOT = /^[\\/]{2}[^\\/]+[\\/]+[^\\/]/;
const COMPLETE = 1;

/**
 * What path.win32.resolve still needs after reading `paths` from the right, as it does: COMPLETE (they are absolute
 * with a drive or UNC root by themselves), a drive such as "D:" (a drive-relative path needs that drive's cwd), or
 * '' (the process cwd).
 */
function pendingDevice(paths: readonly string[]): string | typeof COMPLETE {
  let drive = '';
  let absolute = false;
  for (let i = paths.length - 1; i >= 0; i--) {
    const entry = paths[i] as string;
    if (entry.length === 0) continue;
    const first = entry.charCodeAt(0);
    if (UNC_ROOT.test(entry)) {
      if (drive.length > 0) continue; // another device: path.win32.resolve skips it
      return COMPLETE; // a UNC path is always absolute
    }
    const hasDrive = entry.charCodeAt(1) === COLON && (first | 32) >= 97 && (first | 32) <= 122;
    if (hasDrive) {
      const device = entry.slice(0, 2);
      if (drive.length === 0) drive = device;
      else if (device.toLowerCase() !== drive.toLowerCase()) continue;
    }
    if (!absolute) {
      // A separator first, or "D:" and a separator.
      absolute = isSeparator(first) || (hasDrive && entry.length > 2 && isSeparator(entry.charCodeAt(2)));
      if (absolute && drive.length > 0) return COMPLETE;
    } else if (drive.length > 0) return COMPLETE;
  }
  return drive;
}

/** Node ≥ 22 returns process.cwd() untouched for resolve(), resolve('') and resolve('.') (Node 20 normalizes it). */
const returnsCwdAsIs = Number(process.versions.node?.split('.')[0]) >= 22;

let plainBase = '';
let plainBaseOf: string | undefined;

/** `cwd` with one trailing backslash if appending "\\name" gives path.win32.resolve(cwd, name); otherwise undefined. */
function joinBase(cwd: string): string | undefined {
  if (cwd !== plainBaseOf) {
    plainBaseOf = cwd;
    plainBase = '';
    if (pendingDevice([cwd]) === COMPLETE) {
      const normal = win32Resolve(cwd);
      const trimmed = normal.charCodeAt(normal.length - 1) === BACKSLASH ? normal.slice(0, -1) : normal;
      if (trimmed === cwd || normal === cwd) plainBase = trimmed;
    }
  }
  return plainBase.length > 0 ? plainBase : undefined;
}

/**
 * path.win32.resolve for a process whose cwd is `cwd` (absolute, with a drive or UNC root, as Windows returns it) and
 * whose environment holds the other drives' cwds as `=D:` (as cmd.exe and libuv keep them).
 */
function resolveWin32(cwd: string, segments: readonly string[], env: Readonly<Record<string, string | undefined>>) {
  const count = segments.length;
  const base = count > 0 ? joinBase(cwd) : undefined;
  if (base !== undefined) {
    let result = base;
    let i = 0;
    for (; i < count; i++) {
      const segment = segments[i] as unknown;
      if (typeof segment !== 'string') break;
      if (segment.length === 0) continue;
      if (!isPlainWin32(segment) || illFormedHere(segment)) break;
      result += `\\${segment}`;
    }
    // Only empty segments: the cwd itself, which Node ≥ 22 may return as it is.
    if (i === count && result !== base) return result;
  }
  return resolveDrive(cwd, segments, env);
}

/** The general case: path.win32.resolve, given the cwd it would read (the process's, or another drive's). */
function resolveDrive(cwd: string, segments: readonly string[], env: Readonly<Record<string, string | undefined>>) {
  for (let i = 0; i < segments.length; i++) {
    // path.win32.resolve itself, so that bad arguments get Node's exact errors.
    if (typeof segments[i] !== 'string') return win32Resolve(...segments);
  }
  const pending = pendingDevice(segments);
  if (pending === COMPLETE) return win32Resolve(...segments);
  if (pending === '') {
    const single = segments.length === 1 && (segments[0] === '' || segments[0] === '.');
    if (returnsCwdAsIs && (segments.length === 0 || (single && isSeparator(cwd.charCodeAt(0))))) return cwd;
    return win32Resolve(cwd, ...segments);
  }
  // A drive-relative path ("D:src"): that drive's cwd, else the process cwd if on that drive, else the drive's root.
  let driveCwd = env[`=${pending}`] || cwd;
  if (driveCwd.slice(0, 2).toLowerCase() !== pending.toLowerCase() && driveCwd.charCodeAt(2) === BACKSLASH) {
    driveCwd = `${pending}\\`;
  }
  const withDrive = [driveCwd, ...segments];
  if (pendingDevice(withDrive) === COMPLETE) return win32Resolve(...withDrive);
  // Still not absolute (a UNC cwd and no `=D:`): path.win32.resolve gives up and returns "D:" + the normalized tail.
  let tail = '';
  for (const entry of withDrive) {
    if (entry.length === 0) continue;
    const hasDrive = entry.charCodeAt(1) === COLON && /^[a-z]/i.test(entry);
    if (hasDrive && entry.slice(0, 2).toLowerCase() !== pending.toLowerCase()) continue;
    if (!hasDrive && UNC_ROOT.test(entry)) continue;
    const rest = hasDrive ? entry.slice(2) : entry;
    if (rest.length > 0) tail = tail.length > 0 ? `${tail}\\${rest}` : rest;
  }
  if (tail.length === 0) return pending;
  let normal = path.win32.normalize(`${pending}${tail}`);
  if (normal.charCodeAt(normal.length - 1) === BACKSLASH) normal = normal.slice(0, -1);
  return normal === `${pending}.` ? pending : normal;
}

/**
 * Exactly `platform.resolve(...segments)` for a process whose cwd is `cwd` (what the OS returns: an absolute,
 * normalized path). `platform` is `path.posix` or `path.win32`, by default the running system's. On win32, a
 * drive-relative segment ("D:src") reads that drive's cwd from `env` (default `process.env`) as `=D:`, as Node does.
 * Plain relative segments are joined directly; anything else goes to the platform's own resolve.
 */
export function resolveFrom(
  cwd: string,
  segments: readonly string[],
  platform: PathPlatform = path,
  env?: Readonly<Record<string, string | undefined>>,
): string {
  return platform.sep === '\\' ? resolveWin32(cwd, segments, env ?? process.env) : resolvePosix(cwd, segments);
}

/**
 * `base` (an absolute normalized path, '' for the root) with the components of `segment` applied as path.resolve
 * applies them: empty and "." ones dropped, ".." goes up (never above the root), names appended.
 */
function appendComponents(base: string, segment: string): string {
  let result = base;
  const length = segment.length;
  for (let start = 0; start <= length; ) {
    let end = segment.indexOf('/', start);
    if (end === -1) end = length;
    const size = end - start;
    const dot = size > 0 && size < 3 && segment.charCodeAt(start) === DOT;
    if (dot && size === 2 && segment.charCodeAt(start + 1) === DOT) result = result.slice(0, result.lastIndexOf('/'));
    else if (size > 0 && !(dot && size === 1)) result += `/${segment.slice(start, end)}`;
    start = end + 1;
  }
  return result;
}

/** The segments resolveOther was given, as one list. */
function listOf(count: number, first: unknown, second: unknown, all: unknown[] | undefined): string[] {
  return (all ?? (count === 0 ? [] : count === 1 ? [first] : [first, second])) as string[];
}

/**
 * resolverFor's calls other than two plain names, as path.resolve makes them: read from the right up to the last
 * absolute segment (a non-string reached first throws path.resolve's own error; the segments before it are never
 * looked at), then applied left to right to it, or to the cwd when there is none — read only then (cwd() may throw:
 * a deleted directory, a closed provider). Each segment costs what it holds, not what the cwd holds: path.resolve
 * normalises the whole joined string again. Kept out of the resolver itself, whose size decides what V8 inlines on
 * the hot path.
 */
function resolveOther(
  cwd: () => string,
  anyCwd: boolean,
  count: number,
  first: unknown,
  second: unknown,
  all: unknown[] | undefined, // every segment, when there are more than two
): string {
  let from = -1;
  let ill = false;
  for (let i = count - 1; i >= 0; i--) {
    const segment = all ? all[i] : i === 0 ? first : second;
    if (typeof segment !== 'string') return posixResolve(...listOf(count, first, second, all));
    ill ||= illFormedHere(segment); // Bun turns a lone surrogate into U+FFFD: its own resolve answers those
    if (segment.charCodeAt(0) === SLASH) {
      from = i;
      break;
    }
  }
  const current = from === -1 ? cwd() : '';
  if (from === -1 && anyCwd && !isNormalCwd(current))
    return resolveOddCwd(current, listOf(count, first, second, all), cwd);
  if (ill) {
    const list = listOf(count, first, second, all);
    return from === -1 ? posixResolve(current, ...list) : posixResolve(...list);
  }
  let result = '';
  if (from === -1) {
    if (count === 0) return current; // resolve(): the cwd itself
    result = current.length === 1 ? '' : current; // the root is "/", and "/" + "/src" must not make "//src"
  }
  for (let i = from === -1 ? 0 : from; i < count; i++) {
    const segment = (all ? all[i] : i === 0 ? first : second) as string;
    if (segment.length === 0) continue;
    if (i === from) {
      result = segment.length > 1 && hasPlainComponents(segment, 1) ? segment : appendComponents('', segment);
    } else result = isPlainPosix(segment) ? `${result}/${segment}` : appendComponents(result, segment);
  }
  return result.length === 0 ? '/' : result;
}

/**
 * A provider's `resolve(...segments)` against `cwd()`, for the running system. On POSIX the common call, two names
 * such as resolve('src', 'index.ts'), is answered inside this one function. Measured on Node 24 (a unique loop per
 * variant, the result flattened): the checks in a helper it calls, even inlined, cost a fifth more; a rest parameter
 * ~3% more than `arguments`; and joining `cwd + "/"`, kept while cwd() returns the same string, to one short
 * `name/name` string is ~10% cheaper than joining four parts. The other calls are read from the right, as path.resolve
 * reads them: plain names after an absolute directory (`resolve(__dirname, 'x')`) or after the cwd are joined too.
 * A provider's cwd() answers as the OS does; one that may answer otherwise (install()'s reads whatever process.cwd is,
 * a test's fake included) is given with `anyCwd`.
 */
export function resolverFor(
  cwd: () => string,
  { anyCwd = false }: ResolverOptions = {},
): (...segments: string[]) => string {
  if (path.sep === '\\') {
    return (...segments) => {
      const current = cwd();
      // An odd answer on Windows: the runtime's own, which asks process.cwd() again.
      if (anyCwd && !isNormalCwd(current)) return win32Resolve(...segments);
      return resolveWin32(current, segments, process.env);
    };
  }
  let base: unknown = resolverFor; // no answer yet: anything cwd() returns differs from it
  let prefix = '';
  // Where lone surrogates become U+FFFD: the last name found well-formed in each place, so that a repeated name costs
  // a comparison, not an isWellFormed call (~3 ns on Bun 1.4).
  let wellFormedFirst = '';
  let wellFormedSecond = '';
  return function resolve(first?: string, second?: string): string {
    // biome-ignore lint/complexity/noArguments: a rest parameter would cost the two-name call an array
    const count = arguments.length;
    // Plain names: no slash, and a first character above "." (so not empty, ".", ".." or ".hidden": those go on).
    if (
      count === 2 &&
      typeof first === 'string' &&
      typeof second === 'string' &&
      first.charCodeAt(0) > DOT &&
      second.charCodeAt(0) > DOT &&
      first.indexOf('/') === -1 &&
      second.indexOf('/') === -1
    ) {
      if (replacesLoneSurrogates) {
        if (first !== wellFormedFirst) {
          if (illFormedHere(first)) return resolvePosix(cwd(), [first, second]);
          wellFormedFirst = first;
        }
        if (second !== wellFormedSecond) {
          if (illFormedHere(second)) return resolvePosix(cwd(), [first, second]);
          wellFormedSecond = second;
        }
      }
      const current = cwd();
      if (current !== base) {
        if (anyCwd && !isNormalCwd(current)) return resolveOddCwd(current, [first, second], cwd);
        base = current;
        prefix = current.length === 1 ? '/' : `${current}/`; // the root is "/", and "/" + "/src" must not make "//src"
      }
      // biome-ignore lint/style/useTemplate: one template of the three parts is the four-part join again
      return prefix + (first + '/' + second);
    }
    // Up to two segments travel as they are, more as an array: an arguments object would cost more.
    if (count <= 2) return resolveOther(cwd, anyCwd, count, first, second, undefined);
    // biome-ignore lint/complexity/noArguments: as above
    return resolveOther(cwd, anyCwd, count, first, second, Array.prototype.slice.call(arguments));
  };
}
