// node --test: the workflow lint passes on the committed workflows and fails on a broken one.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./lint-workflows.mjs', import.meta.url));
const ci = fileURLToPath(new URL('../.github/workflows/ci.yml', import.meta.url));

test('the committed workflows lint clean', () => {
  const output = execFileSync(process.execPath, [script], { encoding: 'utf8' });
  assert.match(output, /2 file\(s\), 0 finding\(s\)/);
});

test('a broken workflow fails the lint, with the line and the reason', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-workflow-'));
  try {
    // ci.yml with one mistake: a matrix key that does not exist.
    const broken = path.join(dir, 'ci.yml');
    const text = fs.readFileSync(ci, 'utf8');
    assert.match(text, /\{\{ matrix\.os \}\}/);
    fs.writeFileSync(broken, text.replaceAll('{{ matrix.os }}', '{{ matrix.operating-system }}'));
    const run = spawnSync(process.execPath, [script, broken], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /ci\.yml:\d+:\d+: property "operating-system" is not defined/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
