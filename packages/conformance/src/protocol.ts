/** Messages between the suite and a worker thread that holds a provider of the strategy under test. */
export type WorkerCall = { op: 'cwd' | 'invalidate' | 'osCwd' } | { op: 'chdir'; directory: string };
export type WorkerRequest = WorkerCall & { id: number };

export type WorkerResponse =
  | { id: number; ok: true; value: string | undefined }
  | { id: number; ok: false; error: { name: string; message: string; code: string | undefined } };

export interface WorkerSetup {
  module: string;
  options: unknown;
}
