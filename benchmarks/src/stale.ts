import { judgeRead } from '@cwdkit/conformance/harness';

/**
 * The worker-read scenario judges each read with the conformance suite's rule (publish-after-chdir), so the suite and
 * the bench cannot disagree on what a stale read is. A read that cannot be told from a fresh one is not counted stale.
 */
export function isStaleRead(read: string, before: number, after: number, dirs: readonly string[]): boolean {
  return judgeRead(read, before, after, dirs) === 'stale';
}

/**
 * The same rule for worker-after-chdir, where the main thread waits for the read before its next chdir: no chdir is in
 * flight, so the newest that may have happened is the published one itself (judgeRead's `after + 1` is `generation`),
 * and the only fresh answer is `dirs[generation % dirs.length]`.
 */
export function isStaleAfterChdir(read: string, generation: number, dirs: readonly string[]): boolean {
  return judgeRead(read, generation, generation - 1, dirs) === 'stale';
}
