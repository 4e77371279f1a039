import path from 'node:path';

const SLASH = 47;
const DOT = 46;

/** A segment that path.resolve would append unchanged: no leading, trailing or double slash, no `.` or `..`. */
function isPlainSegment(segment: string): boolean {
  const length = segment.length;
  let start = 0;
  for (let i = 0; i <= length; i++) {
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

/**
 * Exactly `path.resolve(...segments)` for a process whose cwd is `cwd` (an absolute, normalized path such as
 * getcwd returns). Plain relative segments are joined directly; anything else goes to path.resolve itself.
 */
export function resolveFrom(cwd: string, segments: readonly string[]): string {
  let result = cwd.length === 1 ? '' : cwd; // the root is "/", and "/" + "/src" must not make "//src"
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as unknown;
    // path.resolve itself, so that bad arguments get Node's exact errors.
    if (typeof segment !== 'string') return path.resolve(...segments);
    if (segment.length === 0) continue;
    if (!isPlainSegment(segment)) return path.resolve(cwd, ...segments);
    result += `/${segment}`;
  }
  return result.length === 0 ? '/' : result;
}
