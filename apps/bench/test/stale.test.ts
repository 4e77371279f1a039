import { combineReaders, isStaleAfterChdir, isStaleRead } from '@cwdkit/benchmarks';
import { describe, expect, it } from 'vitest';

const ring = ['/a', '/b', '/c', '/d', '/e', '/f'];

describe('isStaleRead (publish-after-chdir)', () => {
  it('accepts the published directory and the one whose chdir may not be published yet', () => {
    // Generation 7 published: dirs[7 % 6] = /b is current, the chdir to /c may already have happened.
    expect(isStaleRead('/b', 7, 7, ring)).toBe(false);
    expect(isStaleRead('/c', 7, 7, ring)).toBe(false);
  });

  it('refuses a directory that was left before the read began, and one not yet reached', () => {
    expect(isStaleRead('/a', 7, 7, ring)).toBe(true); // left when generation 7 was published
    expect(isStaleRead('/d', 7, 7, ring)).toBe(true); // its chdir cannot start before 8 is published
  });

  it('accepts every directory current between the two loads', () => {
    // Between 7 and 9: /b (7), /c (8), /d (9) and /e (10, maybe not yet published).
    for (const dir of ['/b', '/c', '/d', '/e']) expect(isStaleRead(dir, 7, 9, ring)).toBe(false);
    for (const dir of ['/a', '/f']) expect(isStaleRead(dir, 7, 9, ring)).toBe(true);
  });

  it('cannot judge a window as long as the ring, but still refuses a path outside it', () => {
    for (const dir of ring) expect(isStaleRead(dir, 0, 100, ring)).toBe(false);
    expect(isStaleRead('/elsewhere', 0, 100, ring)).toBe(true);
  });

  it('counts a run of reads the way a reader does', () => {
    // A reader whose cache stayed on /a while the main thread went round the ring.
    const reads = [
      { value: '/a', before: 0, after: 0 },
      { value: '/a', before: 1, after: 1 },
      { value: '/a', before: 2, after: 3 },
      { value: '/d', before: 3, after: 3 },
      { value: '/a', before: 6, after: 6 }, // back at /a: fresh again
    ];
    const stale = reads.filter((read) => isStaleRead(read.value, read.before, read.after, ring)).length;
    expect(stale).toBe(2);
  });
});

describe('isStaleAfterChdir (worker-after-chdir: no chdir in flight during a read)', () => {
  it('accepts only the directory just published, not the next one isStaleRead allows for', () => {
    expect(isStaleAfterChdir('/b', 7, ring)).toBe(false);
    expect(isStaleAfterChdir('/c', 7, ring)).toBe(true); // the main thread waits for the read before that chdir
    expect(isStaleRead('/c', 7, 7, ring)).toBe(false);
    for (const dir of ['/a', '/d', '/e', '/f', '/elsewhere']) expect(isStaleAfterChdir(dir, 7, ring)).toBe(true);
    expect(isStaleAfterChdir('/a', 0, ring)).toBe(false);
  });
});

describe('combineReaders', () => {
  it('sums reads and stale reads, and pools the timings', () => {
    const stats = (p50: number, min: number, p99: number) => ({
      p50,
      min,
      p99,
      avg: p50,
      samples: 10,
      opsPerSample: 4,
    });
    const combined = combineReaders([
      { reads: 100, stale: 1, stats: stats(10, 5, 50) },
      { reads: 300, stale: 0, stats: stats(30, 4, 40) },
    ]);
    expect(combined.stale).toEqual({ reads: 400, stale: 1 });
    expect(combined.stats).toEqual({ p50: 20, min: 4, p99: 50, avg: 20, samples: 20, opsPerSample: 4 });
  });
});
