import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { codedError, osChdir, readOsCwd, type StrategyDefinition } from '@cwdkit/core';

/** Slots of the Int32Array the main thread and the readers share. */
export const Slot = {
  /** The last generation published: the main thread stores k after its k-th chdir returned. */
  Published: 0,
  Stop: 1,
  Ready: 2,
  /** Reads done by all readers so far (each adds in batches). */
  Reads: 3,
  /** The last generation a reader read under: a paused storm waits for it to catch up before the next chdir. */
  Seen: 4,
  /** Readers that stopped reading (a failed read ends one): nobody to wait for. */
  Gone: 5,
} as const;

/** Module specifier meaning "the runtime's own process.cwd() / Deno.cwd(), chdir with the runtime's own chdir". */
export const RUNTIME = 'runtime';

export interface StaleReadOptions {
  /** The strategy's module specifier (importable from a worker), or RUNTIME. */
  module: string;
  options?: unknown;
  workers?: number;
  /** At least this many chdirs on the main thread. */
  chdirs?: number;
  directories?: number;
  /** Keep changing directory until the readers have made at least this many reads. */
  minReads?: number;
  /** Give up waiting (for minReads, and for readers in a paused storm) after this long. */
  maxMs?: number;
  /**
   * Busy-wait this many microseconds before each chdir (default 0), and until a reader has read the state the last
   * chdir published. In a tight loop the cwd changes every few microseconds and a stale cache is replaced before a
   * reader catches it; a pause makes each published state last long enough to be read and counted. Waiting for a
   * reader means one is running when the next chdir starts: on a loaded machine readers are descheduled for
   * milliseconds, and a race that needs a running reader could otherwise be missed for a whole storm.
   */
  pauseUs?: number;
  /**
   * Cold readers: the main thread never loads the strategy and changes directory with the runtime's own chdir, so
   * the readers find none of its shared memory (a pool whose main thread only orchestrates).
   */
  cold?: boolean;
}

export interface StaleReadResult {
  module: string;
  workers: number;
  chdirs: number;
  pauseUs: number;
  /** Every read the workers made. */
  reads: number;
  /** Reads whose bracket did not span every directory, so their answer could be judged. */
  checked: number;
  /** Checked reads that returned a directory not current at any moment during the read. */
  stale: number;
  examples: { value: string; from: number; to: number }[];
  ms: number;
}

/**
 * The publish-after-chdir protocol: the main thread chdirs over `directories` directories and publishes a generation
 * after each chdir returns; each reader loads the generation, reads the cwd, loads it again. The directory current at
 * some moment during the read is one of those of generations [first, second + 1] (the +1: a chdir that returned but is
 * not yet published). Any other answer is stale.
 */
export async function measureStaleReads(settings: StaleReadOptions): Promise<StaleReadResult> {
  const {
    module,
    options,
    workers = 2,
    chdirs = 10_000,
    directories = 64,
    minReads = 0,
    maxMs = 60_000,
    pauseUs = 0,
    cold = false,
  } = settings;
  if (!(Number.isFinite(pauseUs) && pauseUs >= 0)) {
    throw codedError(new RangeError(`pauseUs must be a finite number >= 0, got ${pauseUs}`), 'ERR_OUT_OF_RANGE');
  }
  const scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-stale-')));
  const dirs = Array.from({ length: directories }, (_, i) => {
    const directory = path.join(scratch, `d${i}`);
    fs.mkdirSync(directory);
    return directory;
  });
  const strategy =
    module === RUNTIME || cold
      ? undefined
      : ((await import(module)) as { default: StrategyDefinition<unknown> }).default;
  const provider = strategy?.create(options);
  const chdir = provider ? (directory: string) => provider.chdir(directory) : osChdir;
  const home = readOsCwd(); // the OS's answer: a strategy under test may have left the runtime's cache behind
  const control = new Int32Array(new SharedArrayBuffer(6 * 4));
  Atomics.store(control, Slot.Seen, -1);
  chdir(dirs[0] as string);

  const readers = Array.from(
    { length: workers },
    () =>
      new Worker(new URL('./stale-reader.js', import.meta.url), {
        workerData: { module, options, dirs, control: control.buffer },
      }),
  );
  const results = readers.map(
    (reader) =>
      new Promise<Omit<StaleReadResult, 'module' | 'workers' | 'chdirs' | 'pauseUs' | 'ms'>>((resolve, reject) => {
        reader.once('message', resolve);
        reader.once('error', reject);
        reader.once('exit', (code) => reject(new Error(`a stale-read reader exited with code ${code}`)));
      }),
  );
  // A reader that dies before it is ready (a strategy that fails to load, say) ends the wait with its error.
  let failure: unknown;
  for (const result of results) result.catch((error) => (failure ??= error));
  try {
    while (Atomics.load(control, Slot.Ready) < workers) {
      if (failure !== undefined) throw failure;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const started = performance.now();
    const deadline = started + maxMs;
    let done = 0;
    while (done < chdirs || (Atomics.load(control, Slot.Reads) < minReads && performance.now() < deadline)) {
      if (pauseUs > 0) {
        // Busy, not a timer: a timer would sleep a whole millisecond.
        for (const until = performance.now() + pauseUs / 1000; performance.now() < until; );
        while (
          Atomics.load(control, Slot.Seen) !== done &&
          Atomics.load(control, Slot.Gone) === 0 &&
          performance.now() < deadline
        );
      }
      done++;
      chdir(dirs[done % directories] as string);
      Atomics.store(control, Slot.Published, done);
    }
    const ms = performance.now() - started;
    Atomics.store(control, Slot.Stop, 1);
    const parts = await Promise.all(results);
    return {
      module,
      workers,
      chdirs: done,
      pauseUs,
      reads: parts.reduce((sum, part) => sum + part.reads, 0),
      checked: parts.reduce((sum, part) => sum + part.checked, 0),
      stale: parts.reduce((sum, part) => sum + part.stale, 0),
      examples: parts.flatMap((part) => part.examples).slice(0, 5),
      ms,
    };
  } finally {
    Atomics.store(control, Slot.Stop, 1);
    await Promise.all(readers.map((reader) => reader.terminate()));
    chdir(home);
    provider?.invalidate();
    provider?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
