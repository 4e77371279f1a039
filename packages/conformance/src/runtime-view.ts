import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { readOsCwd } from '@cwdkit/core';
import type { RuntimeView } from './protocol.js';

const deno = (globalThis as { Deno?: { cwd(): string } }).Deno;

/** What this thread's runtime says about the cwd, through its own (possibly installed) functions, and the OS. */
export function runtimeView(): RuntimeView {
  return {
    os: readOsCwd(),
    processCwd: process.cwd(),
    ...(deno ? { denoCwd: deno.cwd() } : {}),
    resolved: path.resolve('x'),
    realpath: fs.realpathSync('.'),
  };
}
