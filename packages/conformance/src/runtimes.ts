import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type OtherRuntime = 'bun' | 'deno';

/** Where the npm packages `bun` and `deno` put their binaries. */
const binaries: Record<OtherRuntime, string> = { bun: 'bin/bun.exe', deno: 'deno' };

/**
 * The binary of the `bun` or `deno` npm package installed in the project (as a devDependency), or undefined.
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
