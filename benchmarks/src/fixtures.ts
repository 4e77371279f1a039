import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

/**
 * A fresh temporary directory with `count` subdirectories, by their real paths (what getcwd returns). remove()
 * goes back to the directory the process started in first: a process cannot delete the directory it stands in everywhere.
 */
export function tempDirs(count: number): { root: string; dirs: string[]; remove(): void } {
  const start = process.cwd();
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-bench-')));
  const dirs = Array.from({ length: count }, (_, i) => {
    const dir = path.join(root, `d${i}`);
    fs.mkdirSync(dir);
    return dir;
  });
  return {
    root,
    dirs,
    remove() {
      process.chdir(start);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

const deno = (globalThis as { Deno?: { cwd(): string; chdir(directory: string): void } }).Deno;

/**
 * The cwd as a program written for the runtime asks for it, the baseline of every cwd row: Deno.cwd() and Deno.chdir()
 * on Deno (its process.cwd() is a compatibility layer on top, slower still), process.* elsewhere. The globals, not
 * core's captured originals (runtimeCwd): what a program calls, and nothing is installed in these processes.
 */
export const baselineCwd: {
  readonly cwdLabel: string;
  readonly chdirLabel: string;
  readonly cwd: () => string;
  readonly chdir: (directory: string) => void;
} = deno
  ? {
      cwdLabel: 'Deno.cwd()',
      chdirLabel: 'Deno.chdir() + Deno.cwd()',
      cwd: () => deno.cwd(),
      chdir: (directory) => deno.chdir(directory),
    }
  : {
      cwdLabel: 'process.cwd()',
      chdirLabel: 'process.chdir() + process.cwd()',
      cwd: () => process.cwd(),
      chdir: (directory) => process.chdir(directory),
    };
