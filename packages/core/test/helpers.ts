import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = fileURLToPath(new URL('..', import.meta.url));
export const dist = path.join(packageRoot, 'dist');

/** A fresh real directory (symlinks resolved, so it compares equal to what getcwd reports). */
export function scratchDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}
