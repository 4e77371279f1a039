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

/** The directory of installed package `name` as Node would find it from `from`: the nearest node_modules upwards. */
function installedPackage(name: string, from: string): string | undefined {
  for (let directory = from; ; directory = path.dirname(directory)) {
    const candidate = path.join(directory, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return fs.realpathSync(candidate);
    if (path.dirname(directory) === directory) return undefined;
  }
}

/** A second installed copy of the package under the scratch directory; its dependencies link to the installed ones. */
function installCopy(context: CheckContext, module: string, from: string): string {
  const modules = context.dir('copy', 'node_modules');
  const target = path.join(modules, module);
  fs.cpSync(from, target, { recursive: true, filter: (source) => !source.includes(`${path.sep}node_modules`) });
  const manifest = JSON.parse(fs.readFileSync(path.join(from, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    const installed = installedPackage(name, from);
    if (!installed) continue;
    const link = path.join(modules, name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(installed, link, 'dir');
  }
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
