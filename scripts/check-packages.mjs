#!/usr/bin/env node
// Publishing checks for every public package: publint --strict, attw --pack, npm publish --dry-run; then their types
// as a user's tsc sees them, with and without @types/node (check-types.mjs). Exits 1 on any failure.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { publicPackages, reportTypes } from './check-types.mjs';

const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..');
const packages = publicPackages();

/** A package whose main entry has no `require` condition is ESM only: attw judges it by the esm-only profile. */
const isEsmOnly = (manifest) => !JSON.stringify(manifest.exports?.['.'] ?? {}).includes('"require"');

let failures = 0;
for (const { dir, manifest } of packages) {
  const steps = [
    ['publint', ['publint', '--strict', '.']],
    ['attw', ['attw', '--pack', '.', '--format', 'ascii', ...(isEsmOnly(manifest) ? ['--profile', 'esm-only'] : [])]],
    ['npm publish --dry-run', ['npm', 'publish', '--dry-run', '--access', 'public', '--ignore-scripts']],
  ];
  for (const [label, [command, ...args]] of steps) {
    const bin = command === 'npm' ? 'npm' : path.join(root, 'node_modules', '.bin', command);
    const result = spawnSync(bin, args, { cwd: dir, encoding: 'utf8' });
    const ok = result.status === 0;
    process.stdout.write(`${ok ? 'ok' : 'not ok'} - ${manifest.name}: ${label}\n`);
    if (!ok) {
      failures++;
      process.stdout.write(`${result.stdout}${result.stderr}`.replace(/^/gm, '  '));
    }
  }
}
const types = reportTypes(packages);
failures += types.failed;
process.stdout.write(`${packages.length * 3 + types.count - failures} passed, ${failures} failed\n`);
process.exitCode = failures > 0 ? 1 : 0;
