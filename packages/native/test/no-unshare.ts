// The launcher for tests of what runs where unshare(2) is refused: test/fixtures/no-unshare.c, compiled with cc once
// per test process (into a temporary folder, removed at exit). `noUnshare()` is its path; run `[noUnshare(), node, ...]`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('./fixtures/no-unshare.c', import.meta.url));
let built: string | undefined;

export function noUnshare(): string {
  if (built !== undefined) return built;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-no-unshare-'));
  process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
  const binary = path.join(folder, 'no-unshare');
  execFileSync('cc', ['-O2', '-Wall', '-Werror', '-o', binary, source], { stdio: ['ignore', 'ignore', 'inherit'] });
  built = binary;
  return binary;
}
