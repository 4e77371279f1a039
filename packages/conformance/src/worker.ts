// A worker thread that loads the strategy under test by its module specifier and answers the suite's requests.
import { parentPort, workerData } from 'node:worker_threads';
import { readOsCwd, type StrategyDefinition } from '@cwdkit/core';
import type { WorkerRequest, WorkerResponse, WorkerSetup } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('@cwdkit/conformance: worker.js runs only as a worker thread');
const setup = workerData as WorkerSetup;
const strategy = ((await import(setup.module)) as { default: StrategyDefinition<unknown> }).default;
const provider = strategy.create(setup.options);

function answer(request: WorkerRequest): string | undefined {
  switch (request.op) {
    case 'cwd':
      return provider.cwd();
    case 'osCwd':
      return readOsCwd();
    case 'invalidate':
      provider.invalidate();
      return undefined;
    case 'chdir':
      provider.chdir(request.directory);
      return undefined;
  }
}

port.on('message', (request: WorkerRequest) => {
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
  port.postMessage(response);
});
port.postMessage('ready');
