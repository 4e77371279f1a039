// Two copies of a strategy in one process: its ESM and CommonJS builds, and a second installed copy of the package
// (npm installs two versions side by side). Every copy must share one state.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CwdProvider, StrategyDefinition } from '@cwdkit/core';
import type { CheckContext } from '../context.js';
import { type Check, CheckSkipped } from './support.js';

type Loaded = { default?: StrategyDefinition<unknown> };
const require = createRequire(import.meta.url);

/** The package directory of a bare module specifier, or undefined for a file. */
function packageDir(module: string): string | undefined {
  if (module.startsWith('file:') || module.startsWith('.') || path.isAbsolute(module)) return undefined;
  return path.dirname(require.resolve(`${module}/package.json`));
}

/** A second installed copy of the package under the scratch directory; its own dependencies resolve as before. */
function installCopy(context: CheckContext, module: string, from: string): string {
  const target = path.join(context.dir('copy', 'node_modules'), module);
  fs.cpSync(from, target, { recursive: true, filter: (source) => !source.includes(`${path.sep}node_modules`) });
  const core = path.dirname(createRequire(path.join(from, 'package.json')).resolve('@cwdkit/core/package.json'));
  fs.mkdirSync(path.join(context.scratch, 'copy', 'node_modules', '@cwdkit'), { recursive: true });
  const link = path.join(context.scratch, 'copy', 'node_modules', '@cwdkit', 'core');
  if (!fs.existsSync(link)) fs.symlinkSync(core, link, 'dir');
  return target;
}

function esmEntry(directory: string): string | undefined {
  const manifest = JSON.parse(fs.readFileSync(path.join(directory, 'package.json'), 'utf8')) as { module?: string };
  return manifest.module && pathToFileURL(path.join(directory, manifest.module)).href;
}

export const moduleCopiesChecks: readonly Check[] = [
  {
    title: 'two copies of the strategy (ESM and CommonJS, and a second installed copy) share one state',
    async run(context) {
      const from = packageDir(context.module);
      if (!from) throw new CheckSkipped('the strategy is a file, not an installed package: there is no second copy');
      const definitions: [string, StrategyDefinition<unknown> | undefined][] = [['ESM', context.strategy]];
      const commonjs = (() => {
        try {
          return (require(context.module) as Loaded).default;
        } catch {
          return undefined;
        }
      })();
      if (!commonjs || commonjs === context.strategy) throw new CheckSkipped('the package has no CommonJS build');
      definitions.push(['CommonJS', commonjs]);
      const copy = installCopy(context, context.module, from);
      definitions.push(['copy, CommonJS', (createRequire(path.join(copy, '..', 'x.js'))(copy) as Loaded).default]);
      const entry = esmEntry(copy);
      if (entry) definitions.push(['copy, ESM', ((await import(entry)) as Loaded).default]);
      const providers: [string, CwdProvider][] = definitions.map(([name, definition]) => {
        assert.ok(definition, `the ${name} copy has a default export`);
        return [name, definition.create(context.options)];
      });
      try {
        for (const [, provider] of providers) provider.cwd(); // every cache filled
        for (const [index, [name, provider]] of providers.entries()) {
          const target = context.dir(`through-${index}`);
          provider.chdir(target);
          for (const [other, reader] of providers) {
            assert.equal(reader.cwd(), target, `the ${other} copy after a chdir through the ${name} copy`);
          }
        }
      } finally {
        for (const [, provider] of providers) provider.close();
      }
    },
  },
];
