// Every ```js example of every README runs as written, on the lowest supported Node (the system Node 20), Bun and
// Deno (with the permissions the READMEs state), in a fresh project whose node_modules are the workspace's.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyPackage, packageRoot, run, scratchDir, writeFile } from './helpers.js';

const repository = path.resolve(packageRoot, '../..');
const bin = path.join(repository, 'node_modules/.bin');
const readmes = [
  'README.md',
  ...fs.readdirSync(path.join(repository, 'packages')).map((name) => `packages/${name}/README.md`),
  'apps/bench/README.md',
  'benchmarks/README.md',
].filter((file) => fs.existsSync(path.join(repository, file)));

interface Example {
  readonly readme: string;
  readonly line: number;
  readonly code: string;
}

function examples(language = /^```(js|mjs)\s*$/, files = readmes): Example[] {
  const found: Example[] = [];
  for (const readme of files) {
    const lines = fs.readFileSync(path.join(repository, readme), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!language.test(lines[i] as string)) continue;
      const end = lines.indexOf('```', i + 1);
      found.push({ readme, line: i + 1, code: lines.slice(i + 1, end).join('\n') });
      i = end;
    }
  }
  return found;
}

let project: string;
beforeAll(() => {
  project = scratchDir('cwdkit-readme-');
  const names = fs
    .readdirSync(path.join(repository, 'packages'))
    .map((name) => JSON.parse(fs.readFileSync(path.join(repository, 'packages', name, 'package.json'), 'utf8')).name);
  // Deno resolves bare specifiers only for the dependencies package.json lists.
  writeFile(path.join(project, 'package.json'), {
    name: 'readme-examples',
    private: true,
    type: 'module',
    dependencies: Object.fromEntries(names.map((name: string) => [name, '0.0.0'])),
  });
  fs.symlinkSync(path.join(repository, 'node_modules'), path.join(project, 'node_modules'));
  fs.mkdirSync(path.join(project, 'packages/core/src'), { recursive: true }); // the examples chdir there
});
afterAll(() => {
  fs.rmSync(project, { recursive: true, force: true });
});

const all = examples();
const runtimes = [
  ['Node', process.execPath, []],
  ['Bun', path.join(bin, 'bun'), []],
  ['Deno', path.join(bin, 'deno'), ['run', '--allow-read', '--allow-write', '--allow-env', '--allow-ffi']],
] as const;

describe('README examples', () => {
  it('there are examples to run, and none uses `using` (Node 20 cannot parse it)', () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
    for (const { readme, line, code } of all) expect(code, `${readme}:${line}`).not.toMatch(/^\s*using /m);
  });

  it.each(
    all.flatMap((example) =>
      runtimes.map((runtime) => [`${example.readme}:${example.line}`, runtime[0], example, runtime] as const),
    ),
  )('%s on %s', async (_where, _name, example, [, command, args]) => {
    const file = path.join(project, `${example.readme.replaceAll('/', '_')}-${example.line}.mjs`);
    fs.writeFileSync(file, example.code);
    const result = await run(command, [...args, file], { cwd: project });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

// The cwdkit README's config examples, as cwdkit.config.json, where the strategies they prefer are installed (the
// workspace) and where only the last one is (a project with cwdkit and the real @cwdkit/sab-atomics copied in).
describe('cwdkit README config examples', () => {
  const configs = examples(/^```json\s*$/, ['packages/cwdkit/README.md']).filter(({ code }) =>
    code.includes('"strategy"'),
  );
  let lean: string;
  beforeAll(() => {
    lean = scratchDir('cwdkit-readme-lean-');
    copyPackage(lean);
    writeFile(path.join(lean, 'package.json'), { name: 'lean', private: true, type: 'module' });
    for (const part of ['dist', 'package.json']) {
      fs.cpSync(
        path.join(repository, 'packages/sab-atomics', part),
        path.join(lean, 'node_modules/@cwdkit/sab-atomics', part),
        {
          recursive: true,
        },
      );
    }
  });
  afterAll(() => {
    fs.rmSync(lean, { recursive: true, force: true });
  });

  it('there is one with a preference list and options', () => {
    expect(configs.some(({ code }) => code.includes('"options"') && code.includes('['))).toBe(true);
  });

  it.each(
    configs.flatMap((example) =>
      runtimes.flatMap((runtime) =>
        (['with every strategy', 'with only its last strategy'] as const).map(
          (where) => [`packages/cwdkit/README.md:${example.line}`, where, runtime[0], example, runtime] as const,
        ),
      ),
    ),
  )('%s %s installed, on %s', async (_where, where, _name, example, [, command, args]) => {
    const dir = where === 'with every strategy' ? project : lean;
    const config = JSON.parse(example.code) as { strategy: string | string[] };
    fs.writeFileSync(path.join(dir, 'cwdkit.config.json'), example.code);
    const file = writeFile(
      path.join(dir, `config-${example.line}.mjs`),
      "import { createCwdProvider } from 'cwdkit';\nconsole.log((await createCwdProvider()).strategy);\n",
    );
    try {
      const result = await run(command, [...args, file], { cwd: dir });
      expect(result.stderr).toBe('');
      const names = [config.strategy].flat();
      expect(result.stdout.trim()).toBe(where === 'with every strategy' ? names[0] : names.at(-1));
    } finally {
      fs.rmSync(path.join(dir, 'cwdkit.config.json'));
    }
  });
});

describe('the error codes', () => {
  it("every ERR_CWDKIT_ code thrown by a package is in the README of cwdkit and in core's CwdkitErrorCode", () => {
    const thrown = new Set<string>();
    for (const name of fs.readdirSync(path.join(repository, 'packages'))) {
      const src = path.join(repository, 'packages', name, 'src');
      if (!fs.existsSync(src)) continue;
      for (const file of fs.readdirSync(src, { recursive: true }) as string[]) {
        if (!/\.([cm]?ts|cc)$/.test(file)) continue;
        for (const [code] of fs.readFileSync(path.join(src, file), 'utf8').matchAll(/ERR_CWDKIT_[A-Z_]+/g)) {
          thrown.add(code);
        }
      }
    }
    const readme = fs.readFileSync(path.join(repository, 'packages/cwdkit/README.md'), 'utf8');
    const errors = readme.slice(readme.indexOf('## Errors'), readme.indexOf('\n## ', readme.indexOf('## Errors') + 1));
    const typed = fs.readFileSync(path.join(repository, 'packages/core/src/errors.ts'), 'utf8');
    expect(thrown.size).toBeGreaterThan(10);
    expect(
      [...thrown].filter((code) => !errors.includes(`\`${code}\``)),
      'missing in the README',
    ).toEqual([]);
    expect(
      [...thrown].filter((code) => !typed.includes(`'${code}'`)),
      'missing in CwdkitErrorCode',
    ).toEqual([]);
  });
});
