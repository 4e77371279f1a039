import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type CwdProvider, osChdir, type StrategyDefinition } from '@cwdkit/core';
import { WorkerClient } from './worker-client.js';

/** What one check gets: the strategy, a scratch directory of real files, and providers and workers that are cleaned up. */
export class CheckContext {
  readonly module: string;
  readonly options: unknown;
  readonly strategy: StrategyDefinition<unknown>;
  /** A fresh real directory (its physical path), removed after the check. */
  readonly scratch: string;
  readonly #providers: CwdProvider[] = [];
  readonly #workers: WorkerClient[] = [];

  constructor(module: string, options: unknown, strategy: StrategyDefinition<unknown>) {
    this.module = module;
    this.options = options;
    this.strategy = strategy;
    this.scratch = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-conformance-')));
  }

  /** A provider of the strategy under test, created with the suite's options. */
  provider(): CwdProvider {
    const provider = this.strategy.create(this.options);
    this.#providers.push(provider);
    return provider;
  }

  /** A real worker thread holding its own provider; `web: true` for a web Worker (on Deno, trap 10). */
  async worker(kind: { web?: boolean } = {}): Promise<WorkerClient> {
    const worker = await WorkerClient.start({ module: this.module, options: this.options, web: kind.web });
    this.#workers.push(worker);
    return worker;
  }

  /** Creates a directory (and its parents) under the scratch directory and returns its physical path. */
  dir(...names: string[]): string {
    const directory = path.join(this.scratch, ...names);
    fs.mkdirSync(directory, { recursive: true });
    return directory;
  }

  /** Creates a file under the scratch directory and returns its path. */
  file(name: string): string {
    const file = path.join(this.scratch, name);
    fs.writeFileSync(file, 'not a directory\n');
    return file;
  }

  /**
   * Back to `home` through a provider of the strategy, so its shared state follows, then every cache forgotten:
   * the next check starts from the truth.
   */
  async dispose(home: string): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.terminate()));
    const restore = this.strategy.create(this.options);
    let failure: unknown;
    try {
      restore.chdir(home);
    } catch (error) {
      // A broken strategy (one that cannot leave a deleted directory) must not strand every later check there.
      failure = error;
      osChdir(home);
    }
    restore.invalidate();
    restore.close();
    for (const provider of this.#providers) provider.close();
    fs.rmSync(this.scratch, { recursive: true, force: true });
    if (failure) throw failure;
  }
}
