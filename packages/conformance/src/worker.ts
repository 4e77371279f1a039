// A worker that loads the strategy under test by its module specifier and answers the suite's requests. The same
// script serves a worker_threads Worker and a web Worker (`new Worker(url, { type: 'module' })` on Deno, trap 10).
import { parentPort, workerData } from 'node:worker_threads';
import { readOsCwd, type StrategyDefinition } from '@cwdkit/core';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './protocol.js';
import { runtimeView } from './runtime-view.js';

interface WebScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

const web = parentPort ? undefined : (globalThis as unknown as WebScope);
if (!parentPort && typeof (web as WebScope | undefined)?.addEventListener !== 'function') {
  throw new Error('@cwdkit/conformance: worker.js runs only as a worker');
}
const send = (message: unknown) => (parentPort ? parentPort.postMessage(message) : web?.postMessage(message));
const onMessage = (listener: (message: unknown) => void) =>
  parentPort ? parentPort.on('message', listener) : web?.addEventListener('message', (event) => listener(event.data));

let provider: ReturnType<StrategyDefinition<unknown>['create']> | undefined;

async function start(setup: WorkerSetup): Promise<void> {
  const strategy = ((await import(setup.module)) as { default: StrategyDefinition<unknown> }).default;
  provider = strategy.create(setup.options);
}

function answer(request: WorkerRequest): string | undefined {
  const own = provider as NonNullable<typeof provider>;
  switch (request.op) {
    case 'cwd':
      return own.cwd();
    case 'osCwd':
      return readOsCwd();
    case 'runtimeView':
      return JSON.stringify(runtimeView());
    case 'invalidate':
      own.invalidate();
      return undefined;
    case 'chdir':
      own.chdir(request.directory);
      return undefined;
  }
}

function reply(request: WorkerRequest): void {
  let response: WorkerResponse;
  try {
    response = { id: request.id, ok: true, value: answer(request) };
  } catch (caught) {
    const error = caught as { name?: string; message?: string; code?: unknown };
    response = {
      id: request.id,
      ok: false,
      error: {
        name: String(error?.name),
        message: String(error?.message),
        code: typeof error?.code === 'string' ? error.code : undefined,
      },
    };
  }
  send(response);
}

// A worker_threads worker gets its setup as workerData; a web worker gets it as its first message.
if (parentPort) {
  await start(workerData as WorkerSetup);
  onMessage((message) => reply(message as WorkerRequest));
  send('ready');
} else {
  let started = false;
  onMessage(async (message) => {
    if (started) return reply(message as WorkerRequest);
    started = true;
    try {
      await start(message as WorkerSetup);
      send('ready');
    } catch (error) {
      send({ failed: String((error as Error)?.stack ?? error) });
    }
  });
}
