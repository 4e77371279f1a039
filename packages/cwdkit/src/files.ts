import { dirname, join } from 'node:path';
import { codedError } from '@cwdkit/core';
import { MAX_FILE_BYTES } from './defaults.js';

// Every file the selection reads goes through this file. On Deno, loading node:fs costs ~7 ms of start-up (Deno
// initialising more of its Node layer), paid by every process under the flag: there Deno's own calls answer the
// common case (a file that exists and is small, a file that does not exist), and everything else (an error, a FIFO, a
// file too large) is asked again through node:fs, as on Node and Bun, so that every answer and every error is the same.
interface DenoFiles {
  lstatSync(path: string): unknown;
  statSync(path: string): { isFile: boolean; size: number };
  readFileSync(path: string): Uint8Array;
  readDirSync(path: string): Iterable<{ name: string }>;
  errors: { NotFound: abstract new () => unknown };
}
const deno = (globalThis as { Deno?: DenoFiles }).Deno;
const fs = () =>
  (globalThis.process as unknown as { getBuiltinModule(id: string): typeof import('node:fs') }).getBuiltinModule(
    'node:fs',
  );

export { MAX_FILE_BYTES };

export function configFileError(file: string, problem: string, cause?: unknown): Error {
  return codedError(new Error(`cwdkit config file ${file} ${problem}`, { cause }), 'ERR_CWDKIT_CONFIG_FILE');
}

/** Whether something exists at `file` (a dangling symlink counts: reading it then fails with a clear error). */
export function exists(file: string): boolean {
  if (deno) {
    try {
      deno.lstatSync(file);
      return true;
    } catch (error) {
      if (error instanceof deno.errors.NotFound) return false;
    }
  }
  return fs().lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}

/** The names in a directory, none when it cannot be read. */
export function listDirectory(directory: string): string[] {
  try {
    return deno ? Array.from(deno.readDirSync(directory), (entry) => entry.name) : fs().readdirSync(directory);
  } catch {
    return [];
  }
}

/** Deno's read of a regular file of at most MAX_FILE_BYTES; undefined for anything else (node:fs then answers). */
function denoRead(file: string): string | undefined {
  if (!deno) return undefined;
  try {
    const stats = deno.statSync(file);
    if (!stats.isFile || stats.size > MAX_FILE_BYTES) return undefined; // never read a huge file whole
    const bytes = deno.readFileSync(file);
    // The BOM is kept, as Buffer's toString keeps it: readJsonFile treats both alike.
    if (bytes.length <= MAX_FILE_BYTES) return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  } catch {
    // asked again through node:fs, whose error the user gets
  }
  return undefined;
}

/**
 * The JSON in `file`, which must be a regular file of at most MAX_FILE_BYTES. Opened without blocking, so a FIFO
 * or a device named like a config file is refused instead of hanging; every failure is ERR_CWDKIT_CONFIG_FILE.
 */
export function readJsonFile(file: string): unknown {
  const text = denoRead(file) ?? readText(file);
  if (text.trim() === '') throw configFileError(file, 'is empty: write {"strategy": "<name>"} in it, or delete it');
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw configFileError(file, `is not valid JSON (${(error as Error).message})`, error);
  }
}

function readText(file: string): string {
  const { closeSync, constants, fstatSync, openSync } = fs();
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw configFileError(file, `cannot be read (${(error as Error).message})`, error);
  }
  let text: string;
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw configFileError(file, 'is not a regular file');
    if (stats.size > MAX_FILE_BYTES) {
      throw configFileError(file, `is larger than ${MAX_FILE_BYTES} bytes (${stats.size}): a config file is small`);
    }
    // Sized by fstat, one byte more telling a file that grew since. Not the whole allowance each time: zero-filling
    // 1 MiB per package.json was most of what `--import cwdkit/register` cost at startup (page faults).
    let buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = readInto(fd, buffer, 0);
    if (length === buffer.length) {
      // It grew: read on, up to one byte more than allowed, which tells a file too large from one that is not.
      const larger = Buffer.allocUnsafe(MAX_FILE_BYTES + 1);
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
      length = readInto(fd, buffer, length);
    }
    if (length > MAX_FILE_BYTES) throw configFileError(file, `is larger than ${MAX_FILE_BYTES} bytes`);
    text = buffer.toString('utf8', 0, length);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_CWDKIT_CONFIG_FILE') throw error;
    throw configFileError(file, `cannot be read (${(error as Error).message})`, error);
  } finally {
    closeSync(fd);
  }
  return text;
}

/** Reads from `fd` into `buffer` from `length` on, until the buffer is full or the file ends; the bytes now held. */
function readInto(fd: number, buffer: Buffer, length: number): number {
  for (let read = -1; read !== 0 && length < buffer.length; length += read) {
    read = fs().readSync(fd, buffer, length, buffer.length - length, null);
  }
  return length;
}

/** The nearest directory from `start` upwards, inclusive, that holds a package.json or .git: the project root. */
export function projectRoot(start: string): string | undefined {
  for (let dir = start; ; ) {
    if (exists(join(dir, 'package.json')) || exists(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
