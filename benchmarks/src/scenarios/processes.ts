// What the scenarios that time whole processes share (startup, the real-* programs): how this runtime runs a script
// with a module preloaded, one timed run, its peak RSS, and the rows' alternation. One process per run.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runtime } from '@cwdkit/core';
import { measureEach } from '../measure.js';
import type { RowResult, RowRole } from '../scenario.js';

/** The one flag users adopt: `node --import cwdkit/register`, `bun --preload`, `deno run --preload`. */
export const REGISTER = fileURLToPath(import.meta.resolve('cwdkit/register'));

/**
 * Writes a probe script at `file` and runs it as `command` would run a program (its preload, its environment): what
 * the preload installed, as cwdkit's installed() names it ("undefined" when nothing is).
 */
export function installedBy(file: string, command: (script: string) => Launch, cwd: string): string {
  fs.writeFileSync(
    file,
    `import { installed } from ${JSON.stringify(import.meta.resolve('cwdkit'))};\nconsole.log(String(installed()));\n`,
  );
  const probe = command(file);
  return execFileSync(probe.file, probe.args, { cwd, env: probe.env, encoding: 'utf8' }).trim();
}

/** How a preload reaches the program: a flag of the runtime, or (Node) NODE_OPTIONS, as a user's npm scripts get it. */
export type PreloadBy = 'flag' | 'env';

export interface Launch {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
}

/** The environment of a measured run: the bench's, without any cwdkit selection of its own (CWDKIT_*). */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of Object.keys(env)) if (name.startsWith('CWDKIT_')) delete env[name];
  return Object.assign(env, extra);
}

/**
 * This runtime (the one running the scenario) running `script` with `preload` loaded first, if any: Node's `--import`
 * (or `NODE_OPTIONS=--import=<file URL>`), Bun's `--preload`, `deno run -A --preload`.
 */
export function launch(
  script: string,
  args: readonly string[],
  preload: string | undefined,
  env: NodeJS.ProcessEnv,
  by: PreloadBy = 'flag',
): Launch {
  if (runtime === 'deno') {
    return {
      file: process.execPath,
      args: ['run', '-A', ...(preload ? ['--preload', preload] : []), script, ...args],
      env,
    };
  }
  if (runtime === 'bun') {
    return { file: process.execPath, args: [...(preload ? ['--preload', preload] : []), script, ...args], env };
  }
  if (preload && by === 'env') {
    const options = [env.NODE_OPTIONS, `--import=${pathToFileURL(preload).href}`].filter(Boolean).join(' ');
    return { file: process.execPath, args: [script, ...args], env: { ...env, NODE_OPTIONS: options } };
  }
  return { file: process.execPath, args: [...(preload ? ['--import', preload] : []), script, ...args], env };
}

/** One run, timed from spawn to exit, in nanoseconds; a failed run throws with what it printed. */
export function timeRun(what: string, command: Launch, cwd: string): number {
  const started = performance.now();
  const result = spawnSync(command.file, command.args, { cwd, env: command.env, encoding: 'utf8' });
  const ns = (performance.now() - started) * 1e6;
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status ?? result.signal}): ${result.stdout}${result.stderr}`);
  }
  return ns;
}

/** GNU time: the peak RSS of the process it runs (`%M`, KiB). Measured in-process, Deno's would carry node:process. */
const TIME = '/usr/bin/time';
export const canMeasureRss = process.platform === 'linux' && fs.existsSync(TIME);

/** The peak RSS of one run, in bytes (undefined without GNU time). Its own runs: the wrapper's exec is not timed. */
export function peakRss(what: string, command: Launch, cwd: string): number | undefined {
  if (!canMeasureRss) return undefined;
  const result = spawnSync(TIME, ['-f', '@@rss %M', command.file, ...command.args], {
    cwd,
    env: command.env,
    encoding: 'utf8',
  });
  const kib = /@@rss (\d+)/.exec(result.stderr ?? '')?.[1];
  if (result.status !== 0 || kib === undefined) {
    throw new Error(`${what} failed under ${TIME} (exit ${result.status}): ${result.stdout}${result.stderr}`);
  }
  return Number(kib) * 1024;
}

export interface ProcessRow {
  readonly key: string;
  readonly label: string;
  readonly role: RowRole;
  /** What one run of this row is. */
  readonly command: Launch;
  readonly cwd: string;
}

/**
 * Times every row `runs` times, alternating (one process per run, the rows' order flipped on reversed rounds), after
 * one unmeasured run of each distinct command with `warmUp` (file cache, the runtime's own compile caches); then `rssRuns` runs of each under GNU
 * time. Each row's stats are its runs' (measureEach), with the median peak RSS.
 */
export function measureProcesses(
  rows: readonly ProcessRow[],
  options: { readonly runs: number; readonly rssRuns: number; readonly warmUp: boolean; readonly reverse: boolean },
): RowResult[] {
  const ordered = options.reverse ? [...rows].reverse() : rows;
  // One unmeasured run of each distinct command (the A/A control shares its baseline's).
  if (options.warmUp) {
    for (const row of ordered.filter((row, i) => ordered.findIndex((other) => other.command === row.command) === i)) {
      timeRun(row.label, row.command, row.cwd);
    }
  }
  const times = new Map<ProcessRow, number[]>(rows.map((row) => [row, []]));
  const rss = new Map<ProcessRow, number[]>(rows.map((row) => [row, []]));
  for (let run = 0; run < options.runs; run++) {
    for (const row of ordered) times.get(row)?.push(timeRun(row.label, row.command, row.cwd));
  }
  for (let run = 0; run < options.rssRuns; run++) {
    for (const row of ordered) {
      const bytes = peakRss(row.label, row.command, row.cwd);
      if (bytes !== undefined) rss.get(row)?.push(bytes);
    }
  }
  return rows.map((row) => {
    const bytes = rss.get(row) ?? [];
    const peakRssBytes = bytes.length > 0 ? measureEach(bytes).p50 : undefined;
    return {
      key: row.key,
      label: row.label,
      role: row.role,
      stats: measureEach(times.get(row) ?? []),
      processes: { runs: options.runs, ...(peakRssBytes !== undefined ? { peakRssBytes } : {}) },
    };
  });
}
