// Every bin of every workspace package is a committed file, so that `npm ci` in a fresh clone (where no dist/ exists
// yet) links it into node_modules/.bin: npm skips a bin whose target is missing, and `npx <bin>` then fetches a
// package of that name from the registry. Each is a shim that imports the built CLI, and says so when it is not built.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { describe, expect, it } from 'vitest';
import { packageRoot, run, scratchDir } from './helpers.js';

const repository = path.resolve(packageRoot, '../..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: repository, encoding: 'utf8' });
/** Path → git mode of every file a fresh clone has. */
const committed = new Map(
  git('ls-files', '-s')
    .trim()
    .split('\n')
    .map((line) => {
      const [mode, , , file] = line.split(/\s+/);
      return [file as string, mode as string] as const;
    }),
);
const lock = JSON.parse(fs.readFileSync(path.join(repository, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { bin?: Record<string, string> }>;
};

const bins = ['packages', 'apps'].flatMap((group) =>
  fs.readdirSync(path.join(repository, group)).flatMap((name) => {
    const dir = `${group}/${name}`;
    const manifest = path.join(repository, dir, 'package.json');
    if (!fs.existsSync(manifest)) return [];
    const { bin = {} } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin?: Record<string, string> };
    return Object.entries(bin).map(([command, target]) => ({ dir, command, target: path.posix.normalize(target) }));
  }),
);

describe('workspace bins', () => {
  it('there are the three CLIs', () => {
    expect(bins.map(({ command }) => command).sort()).toEqual(['cwdkit', 'cwdkit-bench', 'cwdkit-conformance']);
  });

  it.each(bins)(
    '$command: its target $target is committed, executable, and the lockfile agrees',
    ({ dir, command, target }) => {
      expect(committed.get(`${dir}/${target}`), `${dir}/${target} in a fresh clone`).toBe('100755');
      expect(fs.readFileSync(path.join(repository, dir, target), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
      expect(lock.packages[dir]?.bin?.[command]).toBe(target);
    },
  );

  it.each(bins)(
    '$command: before the build it says to build, after it runs the CLI',
    async ({ dir, command, target }) => {
      const unbuilt = scratchDir('cwdkit-bin-');
      try {
        fs.cpSync(path.join(repository, dir, 'package.json'), path.join(unbuilt, 'package.json'));
        fs.cpSync(path.join(repository, dir, path.dirname(target)), path.join(unbuilt, path.dirname(target)), {
          recursive: true,
        });
        expect(await run(path.join(unbuilt, target), ['--help'], { cwd: unbuilt })).toEqual({
          code: 1,
          stdout: '',
          stderr: `${command}: the package is not built yet: run \`npm run build\` first\n`,
        });
      } finally {
        fs.rmSync(unbuilt, { recursive: true, force: true });
      }
      const built = await run(process.execPath, [path.join(repository, dir, target), '--help'], { cwd: repository });
      expect(built.stderr).toBe('');
      expect(built.stdout).toMatch(new RegExp(`^usage: ${command} `, 'i'));
    },
  );
});
