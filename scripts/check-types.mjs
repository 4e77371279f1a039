// The emitted types as a user's TypeScript sees them: every public package's built dist and package.json copied into
// the node_modules of a scratch project outside the repository, every entry point imported from an ESM file and a
// CommonJS one, and the real tsc (the repository's) run with skipLibCheck off, lib ["es2022"], in two projects: one
// with the current @types/node (installed from npm), one with none (`"types": []`). A .d.ts must need neither.
// Run by check-packages.mjs (after a build); alone: `node scripts/check-types.mjs`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/** The @types/node a user installs today (26.x has no path.PlatformPath). */
export const TYPES_NODE = '26.6.7';

/** Every import specifier a package exports types for: its name, and its subpaths. */
function entryPoints({ name, exports: map }) {
  if (!map || typeof map === 'string') return [name];
  const keys = Object.keys(map).filter((key) => key.startsWith('.') && !key.endsWith('.json'));
  return keys.length === 0 ? [name] : keys.map((key) => (key === '.' ? name : `${name}/${key.slice(2)}`));
}

/** Writes the consumer project in `dir`, whose package.json (and @types/node, if any) is already there. */
function project(dir, packages, types) {
  for (const { dir: from, manifest } of packages) {
    const to = path.join(dir, 'node_modules', manifest.name);
    fs.mkdirSync(to, { recursive: true });
    fs.copyFileSync(path.join(from, 'package.json'), path.join(to, 'package.json'));
    fs.cpSync(path.join(from, 'dist'), path.join(to, 'dist'), { recursive: true });
  }
  const specifiers = packages.flatMap(({ manifest }) => entryPoints(manifest));
  const source = specifiers.map((specifier, i) => `import * as m${i} from '${specifier}';`).join('\n');
  const uses = `\nexport const modules = [${specifiers.map((_, i) => `m${i}`).join(', ')}];\n`;
  fs.writeFileSync(path.join(dir, 'esm.ts'), source + uses);
  fs.writeFileSync(path.join(dir, 'cjs.cts'), source + uses);
  const compilerOptions = {
    strict: true,
    target: 'es2022',
    lib: ['es2022'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    noEmit: true,
    skipLibCheck: false,
    types,
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['esm.ts', 'cjs.cts'] }));
}

/** Runs both projects; returns [label, ok, output] for each. */
export function checkTypes(packages) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cwdkit-types-'));
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    const results = [];
    for (const [label, types] of [
      [`tsc with @types/node ${TYPES_NODE}`, ['node']],
      ['tsc without @types/node', []],
    ]) {
      const dir = path.join(scratch, types.length > 0 ? 'with-types-node' : 'without-types-node');
      fs.mkdirSync(dir);
      const manifest = { name: 'consumer', private: true, type: 'module' };
      fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
      if (types.length > 0) {
        // Before the packages are copied in: npm would remove what it did not install.
        const args = [
          'install',
          '--no-save',
          '--no-audit',
          '--no-fund',
          '--ignore-scripts',
          `@types/node@${TYPES_NODE}`,
        ];
        const install = spawnSync('npm', args, { cwd: dir, encoding: 'utf8' });
        if (install.status !== 0) {
          results.push([`${label}: npm install`, false, `${install.stdout}${install.stderr}`]);
          continue;
        }
      }
      project(dir, packages, types);
      const run = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
      results.push([label, run.status === 0, `${run.stdout}${run.stderr}`]);
    }
    return results;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Every package under packages/ that is published (not private), with its manifest. */
export function publicPackages() {
  return fs
    .readdirSync(path.join(root, 'packages'))
    .map((name) => path.join(root, 'packages', name))
    .filter((dir) => fs.existsSync(path.join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private);
}

/** Runs checkTypes and prints a TAP-like line for each check (tsc's errors under a failure); returns the counts. */
export function reportTypes(packages) {
  const results = checkTypes(packages);
  let failed = 0;
  for (const [label, ok, output] of results) {
    process.stdout.write(`${ok ? 'ok' : 'not ok'} - types: ${label}\n`);
    if (!ok) {
      failed++;
      process.stdout.write(output.replace(/^/gm, '  '));
    }
  }
  return { count: results.length, failed };
}

if (process.argv[1] === import.meta.filename) {
  const { count, failed } = reportTypes(publicPackages());
  process.stdout.write(`${count - failed} passed, ${failed} failed\n`);
  process.exitCode = failed > 0 ? 1 : 0;
}
