import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where the test files meet (together.ts). */
    rendezvous: string;
  }
}

/** Runs in vitest's main process: a fresh rendezvous folder; afterwards the process cwd must be where it was. */
export default function setup(project: TestProject): () => void {
  const before = fs.realpathSync.native('.'); // what the OS says, not a cached process.cwd()
  const rendezvous = fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-vitest-threads-'));
  project.provide('rendezvous', rendezvous);
  return () => {
    fs.rmSync(rendezvous, { recursive: true, force: true });
    const after = fs.realpathSync.native('.');
    if (after !== before) {
      // vitest reports an error thrown here but still exits 0: fail the run through its exit code.
      process.exitCode = 1;
      console.error(`the main process's cwd moved from ${before} to ${after}`);
    }
  };
}
