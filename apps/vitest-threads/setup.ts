// The one line: in each vitest worker, process.chdir() moves only that worker's cwd, and fs, child_process,
// path.resolve and new Worker follow it. (Once @cwdkit/thread-cwd has a `setup` entry, this file becomes
// `import '@cwdkit/thread-cwd/setup';`.)
import { createProvider } from '@cwdkit/thread-cwd';
import { install } from 'cwdkit';

install(createProvider());
