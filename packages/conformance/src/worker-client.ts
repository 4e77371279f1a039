import { Worker } from 'node:worker_threads';
import type { WorkerCall, WorkerResponse, WorkerSetup } from './protocol.js';

type Pending = { resolve: (value: string | undefined) => void; reject: (error: Error) => void };

/** A real worker thread holding its own provider of the strategy; every call is a round trip. */
export class WorkerClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (message: WorkerResponse) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.ok) pending.resolve(message.value);
      else pending.reject(Object.assign(new Error(message.error.message), message.error));
    });
    worker.on('error', (error) => this.#failAll(error));
  }

  static async start(setup: WorkerSetup): Promise<WorkerClient> {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: setup });
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the worker exited with code ${code} before it was ready`)));
      worker.once('message', () => resolve());
    });
    worker.removeAllListeners('exit');
    return new WorkerClient(worker);
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #call(request: WorkerCall): Promise<string | undefined> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  async cwd(): Promise<string> {
    return (await this.#call({ op: 'cwd' })) as string;
  }
  async osCwd(): Promise<string> {
    return (await this.#call({ op: 'osCwd' })) as string;
  }
  async invalidate(): Promise<void> {
    await this.#call({ op: 'invalidate' });
  }
  async chdir(directory: string): Promise<void> {
    await this.#call({ op: 'chdir', directory });
  }
  async terminate(): Promise<void> {
    await this.#worker.terminate();
  }
}
