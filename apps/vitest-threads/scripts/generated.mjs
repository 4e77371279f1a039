// A generated project (issue #28 item 5): `files` test files that each read a fixture (sync and fs.promises) and spawn
// a child, none of which chdirs, so that vitest's pool 'threads' runs it without the setup entry too; with `chdir`,
// each first chdirs into the fixtures' folder and reads and spawns there (bare threads cannot run that). Made anew in
// `dir`, which must be inside this app (vitest and @cwdkit/thread-cwd resolve from its node_modules), with three
// configs: vitest.threads.config.ts (the setup entry), vitest.bare.config.ts (none), vitest.forks.config.ts. Used by
// scripts/measure.mjs --generated and by cwdkit-bench's vitest-generated scenario.
import fs from 'node:fs';
import path from 'node:path';

/** Makes the project in `dir` (removed first) and returns `dir`. */
export function generate(files, dir, { chdir = false } = {}) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'test'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'fixtures'));
  fs.writeFileSync(path.join(dir, 'fixtures', 'data.txt'), 'data');
  for (let i = 0; i < files; i++) {
    fs.writeFileSync(
      path.join(dir, 'test', `f${i}.test.ts`),
      `import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, test } from 'vitest';

test('reads a fixture and spawns a child (${i})', async () => {
${chdir ? "  process.chdir('fixtures');\n" : ''}  const data = '${chdir ? '' : 'fixtures/'}data.txt';
  expect(fs.readFileSync(data, 'utf8')).toBe('data');
  expect(await fs.promises.readFile(data, 'utf8')).toBe('data');
  expect(execFileSync('/bin/sh', ['-c', 'cat "$1"; echo ${i}', 'sh', data], { encoding: 'utf8' })).toBe('data${i}\\n');
});
`,
    );
  }
  // Packages as from npm: vitest loads cwdkit's with Node itself (see vitest.npm-like.config.ts).
  const external = 'server: { deps: { external: [/\\/packages\\/[^/]+\\/dist\\//] } }';
  const config = (pool, setup) =>
    `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ['test/**/*.test.ts'], pool: '${pool}', setupFiles: ${setup ? "['@cwdkit/thread-cwd/setup']" : '[]'}, ${external} } });\n`;
  fs.writeFileSync(path.join(dir, 'vitest.threads.config.ts'), config('threads', true));
  fs.writeFileSync(path.join(dir, 'vitest.bare.config.ts'), config('threads', false));
  fs.writeFileSync(path.join(dir, 'vitest.forks.config.ts'), config('forks', false));
  return dir;
}
