#!/usr/bin/env node
// Committed so that npm links the bin even before the package is built (a fresh clone): a bin whose target is missing
// at `npm ci` is never linked, and `npx cwdkit-bench` then fetches a package of that name from the registry. The CLI is
// dist/cli.js.
try {
  await import('../dist/cli.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('cli.js')) throw error;
  process.stderr.write('cwdkit-bench: the package is not built yet: run `npm run build` first\n');
  process.exitCode = 1;
}
