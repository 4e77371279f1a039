import { Worker } from 'node:worker_threads';
import type { RuntimeView, WorkerCall, WorkerResponse, WorkerSetup } from './protocol.js';

type Pending = { resolve: (value: string | undefined) => void; reject: (error: Error) => void };

/** The part of a worker the client uses: a worker_threads Worker and a web Worker both fit behind it. */
interface Channel {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onError(listener: (error: Error) => void): void;
  terminate(): Promise<unknown> | undefined;
}

interface WebWorker {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'error', listener: (event: { data?: unknown; message?: string }) => void): void;
  terminate(): void;
}
type WebWorkerConstructor = new (url: URL, options: { type: 'module' }) => WebWorker;

const script = new URL('./worker.js', import.meta.url);

function nodeChannel(setup: WorkerSetup): Channel {
  const worker = new Worker(script, { workerData: setup });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onError: (listener) => {
      worker.on('error', listener);
      worker.on('exit', (code) => listener(new Error(`the worker exited with code ${code}`)));
    },
    terminate: () => worker.terminate(),
  };
}

function webChannel(setup: WorkerSetup): Channel {
  const WebWorker = (globalThis as { Worker?: WebWorkerConstructor }).Worker;
  if (typeof WebWorker !== 'function') throw new Error('this runtime has no web Worker');
  const worker = new WebWorker(script, { type: 'module' });
  worker.postMessage(setup);
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.addEventListener('message', (event) => listener(event.data)),
    onError: (listener) => worker.addEventListener('error', (event) => listener(new Error(String(event.message)))),
    terminate: () => {
      worker.terminate();
      return undefined;
    },
  };
}

/**
 * A real worker holding its own provider of the strategy; every call is a round trip. `web: true` starts a web
 * Worker (`new Worker(url, { type: 'module' })`) instead of a worker_threads one: on Deno its `isMainThread` is true.
 */
export class WorkerClient {
  readonly #channel: Channel;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #failure: Error | undefined;

  private constructor(channel: Channel) {
    this.#channel = channel;
    channel.onMessage((message) => {
      const response = message as WorkerResponse;
      const pending = this.#pending.get(response.id);
      if (!pending) return;
      this.#pending.delete(response.id);
      if (response.ok) pending.resolve(response.value);
      else pending.reject(Object.assign(new Error(response.error.message), response.error));
    });
    channel.onError((error) => {
      this.#failure ??= error;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    });
  }

  static async start(setup: WorkerSetup & { web?: boolean }): Promise<WorkerClient> {
    const { web, ...data } = setup;
    const channel = web ? webChannel(data) : nodeChannel(data);
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      channel.onError((error) => {
        if (!settled) reject(new Error(`the worker failed before it was ready: ${error.message}`));
        settled = true;
      });
      channel.onMessage((message) => {
        if (settled) return;
        settled = true;
        if (message === 'ready') resolve();
        else reject(new Error(`the worker failed to start: ${JSON.stringify(message)}`));
      });
    });
    return new WorkerClient(channel);
  }

  #call(request: WorkerCall): Promise<string | undefined> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#channel.post({ ...request, id });
    });
  }

  async cwd(): Promise<string> {
    return (await this.#call({ op: 'cwd' })) as string;
  }
  async osCwd(): Promise<string> {
    return (await this.#call({ op: 'osCwd' })) as string;
  }
  /** What the worker's own runtime functions say about its cwd (runtime coherence). */
  async runtimeView(): Promise<RuntimeView> {
    return JSON.parse((await this.#call({ op: 'runtimeView' })) as string) as RuntimeView;
  }
  async invalidate(): Promise<void> {
    await this.#call({ op: 'invalidate' });
  }
  async chdir(directory: string): Promise<void> {
    await this.#call({ op: 'chdir', directory });
  }
  async terminate(): Promise<void> {
    await this.#channel.terminate();
  }
}
