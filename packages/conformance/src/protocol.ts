/** Messages between the suite and a worker thread that holds a provider of the strategy under test. */
export type WorkerCall = { op: 'cwd' | 'invalidate' | 'osCwd' | 'runtimeView' } | { op: 'chdir'; directory: string };
export type WorkerRequest = WorkerCall & { id: number };

export type WorkerResponse =
  | { id: number; ok: true; value: string | undefined }
  | { id: number; ok: false; error: { name: string; message: string; code: string | undefined } };

export interface WorkerSetup {
  module: string;
  options: unknown;
}

/** What the runtime's own functions say about the cwd on one thread: runtime coherence compares it with the OS. */
export interface RuntimeView {
  os: string;
  processCwd: string;
  /** Deno.cwd() on Deno. */
  denoCwd?: string;
  /** path.resolve('x'). */
  resolved: string;
  /** fs.realpathSync('.'). */
  realpath: string;
}
