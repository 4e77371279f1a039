import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Answer, ReaderData } from './reader.js';

/**
 * A worker running reader.js, ready to answer. `reader` is its URL, resolved by the calling script: this module may
 * be bundled into a chunk elsewhere in dist, where its own import.meta.url would point to the wrong folder.
 */
export async function answeringWorker(reader: URL, workerData: ReaderData): Promise<Worker> {
  const worker = new Worker(reader, { workerData });
  const [first] = await once(worker, 'message');
  if (first !== 'ready') throw new Error(`unexpected first message ${JSON.stringify(first)}`);
  return worker;
}

/** The worker's cwd(), failing rather than waiting for ever. */
export async function ask(worker: Worker, ms = 10_000): Promise<Answer> {
  const reply = await answer(worker, 'cwd', ms);
  if (reply.error) throw new Error(`the worker failed: ${reply.error}`);
  return reply;
}

/** The worker's answer to `request` (its cwd(), after invalidate() for 'invalidate'), a failed read included. */
export async function answer(worker: Worker, request: 'cwd' | 'invalidate', ms = 10_000): Promise<Answer> {
  const message = once(worker, 'message');
  worker.postMessage(request);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from a worker within ${ms} ms`)), ms);
  });
  try {
    const [reply] = (await Promise.race([message, timeout])) as [Answer];
    return reply;
  } finally {
    clearTimeout(timer);
  }
}
