import { judgeRead } from '@cwdkit/conformance/harness';

/**
 * The worker-read scenario judges each read with the conformance suite's rule (publish-after-chdir), so the suite and
 * the bench cannot disagree on what a stale read is. A read that cannot be told from a fresh one is not counted stale.
 */
export function isStaleRead(read: string, before: number, after: number, dirs: readonly string[]): boolean {
  return judgeRead(read, before, after, dirs) === 'stale';
}
