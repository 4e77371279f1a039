// The one line: in each vitest worker, process.chdir() moves only that worker's cwd, and fs, child_process and
// path.resolve follow it. (`installed()` keeps it harmless where a worker runs several files: `isolate: false`.)
import { createProvider } from '@cwdkit/thread-cwd';
import { install, installed } from 'cwdkit';

if (!installed()) install(createProvider());
