import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CwdkitConfig,
  type CwdProvider,
  createCwdProvider,
  createCwdProviderSync,
  DEFAULT_STRATEGIES,
  type StrategySelection,
  selectStrategy,
  selectStrategySync,
} from '../src/index.js';
import { PUBLISHED_OPTIONS } from '../src/select.js';
import { installStrategyPackage, scratchDir, strategySource, writeFile } from './helpers.js';

type Fixture = CwdProvider & { options: unknown };

let start: string;
let savedEnv: string | undefined;
let root: string; // holds node_modules with fixture strategies and the config files
let work: string; // the working directory, two levels below root

beforeEach(() => {
  start = process.cwd();
  savedEnv = process.env.CWDKIT_STRATEGY;
  delete process.env.CWDKIT_STRATEGY;
  root = scratchDir();
  work = path.join(root, 'app', 'src');
  fs.mkdirSync(work, { recursive: true });
  // The project root: its node_modules come before the workspace's, and the config search stops here.
  writeFile(path.join(root, 'package.json'), { name: 'scratch-project', private: true });
  // Every published name is present as a fixture here, so no test depends on what the workspace has installed.
  for (const name of DEFAULT_STRATEGIES)
    installStrategyPackage(root, `@cwdkit/${name}`, name, name === 'mutex' ? 'cjs' : 'esm');
  process.chdir(work);
});
afterEach(() => {
  process.chdir(start);
  if (savedEnv === undefined) delete process.env.CWDKIT_STRATEGY;
  else process.env.CWDKIT_STRATEGY = savedEnv;
  fs.rmSync(root, { recursive: true, force: true });
});

interface Mode {
  readonly mode: 'async' | 'sync';
  readonly select: (config?: CwdkitConfig) => Promise<StrategySelection>;
  readonly create: (config?: CwdkitConfig) => Promise<CwdProvider>;
}
const modes: Mode[] = [
  { mode: 'async', select: selectStrategy, create: createCwdProvider },
  {
    mode: 'sync',
    select: async (config) => selectStrategySync(config),
    create: async (config) => createCwdProviderSync(config),
  },
];

describe.each(modes)('precedence ($mode)', ({ mode, select, create }) => {
  const called = mode === 'async' ? 'selectStrategy' : 'selectStrategySync';
  it('the argument beats the environment and config files, and its options reach create()', async () => {
    process.env.CWDKIT_STRATEGY = 'sab-atomics';
    writeFile(path.join(work, 'cwdkit.config.json'), { strategy: 'naive' });
    const provider = (await create({ strategy: 'mutex', options: { level: 3 } })) as Fixture;
    expect(provider.strategy).toBe('mutex');
    expect(provider.options).toEqual({ level: 3 });
    expect((await select({ strategy: 'mutex' })).source).toEqual({ kind: 'argument', function: called });
  });

  it('CWDKIT_STRATEGY beats config files and hands no options over', async () => {
    process.env.CWDKIT_STRATEGY = 'sab-atomics';
    writeFile(path.join(work, 'cwdkit.config.json'), { strategy: 'naive', options: { fromFile: true } });
    const chosen = await select();
    expect(chosen.definition.name).toBe('sab-atomics');
    expect(chosen.source).toEqual({ kind: 'environment', variable: 'CWDKIT_STRATEGY' });
    expect(chosen.options).toBeUndefined();
  });

  it('an argument without a strategy leaves the choice to the next source', async () => {
    process.env.CWDKIT_STRATEGY = 'mutex';
    expect((await select({})).definition.name).toBe('mutex');
  });

  it.each(['', '   ', ', ,'])('CWDKIT_STRATEGY=%j counts as unset', async (value) => {
    process.env.CWDKIT_STRATEGY = value;
    writeFile(path.join(root, 'cwdkit.config.json'), { strategy: 'naive' });
    expect((await select()).definition.name).toBe('naive');
  });

  it('CWDKIT_STRATEGY takes a comma-separated preference list of registered names', async () => {
    // The first choice is found first (here, in the project) but cannot load: the list moves on, in order.
    const entry = path.join(root, 'node_modules/@cwdkit/sab-atomics/index.mjs');
    fs.writeFileSync(entry, "throw new Error('this copy of sab-atomics is broken');\n");
    process.env.CWDKIT_STRATEGY = 'sab-atomics, naive';
    const chosen = await select();
    expect(chosen.definition.name).toBe('naive');
    expect(chosen.skipped.map((s) => s.request)).toEqual(['sab-atomics']);
  });

  it.each([
    ['cwdkit.config.json', { strategy: 'naive', options: { a: 1 } }],
    ['.cwdkitrc.json', { strategy: 'naive', options: { a: 1 } }],
    ['package.json', { name: 'app', cwdkit: { strategy: 'naive', options: { a: 1 } } }],
  ] as [string, object][])('finds %s from the working directory upwards, with its options', async (file, content) => {
    const configFile = writeFile(path.join(root, file), content);
    const chosen = await select();
    expect(chosen.definition.name).toBe('naive');
    expect(chosen.source).toEqual({ kind: 'file', file: configFile });
    expect(chosen.options).toEqual({ a: 1 });
    expect(((await create()) as Fixture).options).toEqual({ a: 1 });
  });

  it('the nearest config file wins', async () => {
    writeFile(path.join(root, 'cwdkit.config.json'), { strategy: 'mutex' });
    writeFile(path.join(root, 'app', '.cwdkitrc.json'), { strategy: 'naive' });
    expect((await select()).definition.name).toBe('naive');
  });

  it('the search stops at the project root: a package.json without a "cwdkit" key ends it', async () => {
    writeFile(path.join(root, 'cwdkit.config.json'), { strategy: 'mutex' });
    writeFile(path.join(root, 'app', 'package.json'), { name: 'inner' });
    installStrategyPackage(path.join(root, 'app'), '@cwdkit/native', 'native');
    expect((await select()).source).toEqual({ kind: 'default' });
    fs.rmSync(path.join(root, 'app', 'package.json'));
    fs.mkdirSync(path.join(root, 'app', '.git'));
    expect((await select()).source).toEqual({ kind: 'default' });
  });

  it('without any choice, the first installed entry of DEFAULT_STRATEGIES wins', async () => {
    const chosen = await select();
    expect(chosen.definition.name).toBe(DEFAULT_STRATEGIES[0]);
    expect(chosen.source).toEqual({ kind: 'default' });
    expect(chosen.module).toBe(path.join(root, 'node_modules/@cwdkit', DEFAULT_STRATEGIES[0] as string, 'index.mjs'));
  });

  it('a preference list: the first entry that loads wins; the others are reported as skipped', async () => {
    writeFile(path.join(root, 'broken.mjs'), 'throw new Error("boom at load");\n');
    writeFile(path.join(root, 'invalid.mjs'), 'export default { specVersion: 2, name: "x" };\n');
    writeFile(path.join(root, 'app', 'cwdkit.config.json'), {
      strategy: ['../missing.mjs', '../broken.mjs', '../invalid.mjs', 'mutex', 'naive'],
    });
    const chosen = await select();
    expect(chosen.definition.name).toBe('mutex');
    expect(chosen.skipped.map(({ request, error }) => [request, (error as Error & { code: string }).code])).toEqual([
      ['../missing.mjs', 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED'],
      ['../broken.mjs', 'ERR_CWDKIT_STRATEGY_LOAD_FAILED'],
      ['../invalid.mjs', 'ERR_CWDKIT_INVALID_STRATEGY'],
    ]);
  });

  it('when nothing in the list loads, the error lists why each entry failed', async () => {
    writeFile(path.join(root, 'broken.mjs'), 'throw new Error("boom at load");\n');
    writeFile(path.join(root, 'invalid.mjs'), 'export default { specVersion: 1, name: "x", description: "d" };\n');
    const error = (await select({ strategy: ['../../missing.mjs', '../../broken.mjs', '../../invalid.mjs'] }).then(
      () => undefined,
      (e: unknown) => e,
    )) as AggregateError & { code: string };
    expect(error).toBeInstanceOf(AggregateError);
    expect(error.code).toBe('ERR_CWDKIT_NO_STRATEGY');
    expect(error.errors.map((e: { code: string }) => e.code)).toEqual([
      'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
      'ERR_CWDKIT_STRATEGY_LOAD_FAILED',
      'ERR_CWDKIT_INVALID_STRATEGY',
    ]);
    expect(error.message).toContain('the argument of selectStrategy');
    expect(error.message).toContain('../../missing.mjs: ');
    expect(error.message).toContain('boom at load');
    expect(error.message).toContain('has no create() function');
  });

  it('a single entry that fails throws its own error', async () => {
    await expect(select({ strategy: './nowhere.mjs' })).rejects.toMatchObject({
      code: 'ERR_CWDKIT_STRATEGY_NOT_INSTALLED',
    });
  });
});

describe.each(modes)('options beside a preference list ($mode)', ({ select, create }) => {
  // The fixtures declare what the published packages declare: native takes mode and intervalMs, sab-atomics nothing.
  // Without native: its package is there but does not load, like an addon with no binary for the platform (the
  // workspace's real native would serve a name whose fixture is deleted; readme.test.ts has native not installed).
  function publishedFixtures({ native }: { native: boolean }): void {
    const dir = installStrategyPackage(root, '@cwdkit/native', 'native', 'esm', ['mode', 'intervalMs']);
    if (!native) fs.writeFileSync(path.join(dir, 'index.mjs'), 'throw new Error("no addon loads");\n');
    installStrategyPackage(root, '@cwdkit/sab-atomics', 'sab-atomics', 'esm', []);
  }
  async function failure(config?: CwdkitConfig): Promise<Error & { code: string }> {
    return select(config).then(
      () => expect.fail('expected the selection to fail'),
      (error: Error & { code: string }) => error,
    );
  }
  const list = ['native', 'sab-atomics'];

  it.each([
    ['flat', { mode: 'cached' }],
    ['per-strategy', { native: { mode: 'cached' } }],
  ])('%s options that only native takes: native gets them', async (_form, options) => {
    publishedFixtures({ native: true });
    const provider = (await create({ strategy: list, options })) as Fixture;
    expect([provider.strategy, provider.options]).toEqual(['native', { mode: 'cached' }]);
  });

  it.each([
    ['flat', { mode: 'cached' }],
    ['per-strategy', { native: { mode: 'cached' } }],
  ])('%s options that only native takes: without native, sab-atomics runs without them', async (_form, options) => {
    publishedFixtures({ native: false });
    const chosen = await select({ strategy: list, options });
    expect([chosen.definition.name, chosen.options]).toEqual(['sab-atomics', undefined]);
    expect(chosen.skipped.map((s) => s.request)).toEqual(['native']);
    expect(((await create({ strategy: list, options })) as Fixture).options).toBeUndefined();
  });

  it('the same from a config file, and flat and per-strategy options together', async () => {
    publishedFixtures({ native: false });
    installStrategyPackage(root, '@cwdkit/mutex', 'mutex', 'cjs', ['level']);
    writeFile(path.join(root, 'cwdkit.config.json'), {
      strategy: ['native', 'mutex'],
      options: { mode: 'watch', level: 1, mutex: { level: 2 } },
    });
    const chosen = await select();
    expect([chosen.definition.name, chosen.options]).toEqual(['mutex', { level: 2 }]);
  });

  it('a single strategy still refuses a key it does not declare', async () => {
    publishedFixtures({ native: false });
    const error = await failure({ strategy: 'sab-atomics', options: { mode: 'cached' } });
    expect(error.code).toBe('ERR_INVALID_ARG_VALUE');
    expect(error.message).toContain('The cwdkit strategy "sab-atomics" has no option "mode"; it takes no options');
  });

  it.each([true, false])(
    'a flat key no listed strategy declares stops the list, naming the list and the near miss (native installed: %s)',
    async (native) => {
      publishedFixtures({ native });
      const error = await failure({ strategy: list, options: { mdoe: 'cached' } });
      expect(error.code).toBe('ERR_INVALID_ARG_VALUE');
      expect(error.message).toContain('"mdoe" is an option of none of the listed strategies (native, sab-atomics)');
      expect(error.message).toContain('did you mean "mode"?');
      expect(error.message).toContain('native takes: mode, intervalMs; sab-atomics takes no options');
    },
  );

  it.each([true, false])(
    "a typo inside a strategy's own options is refused, installed or not (native installed: %s)",
    async (native) => {
      publishedFixtures({ native });
      const error = await failure({ strategy: list, options: { native: { mdoe: 'cached' } } });
      expect(error.code).toBe('ERR_INVALID_ARG_VALUE');
      expect(error.message).toContain('The cwdkit strategy "native" has no option "mdoe" (did you mean "mode"?)');
    },
  );

  it("a strategy's own options must be an object", async () => {
    publishedFixtures({ native: false });
    const error = await failure({ strategy: list, options: { native: 'cached' } });
    expect(error.code).toBe('ERR_INVALID_ARG_VALUE');
    expect(error.message).toContain('"options.native" must be an object');
  });

  it('a module path is keyed as written; its options are unknown until it loads, so a flat key says how', async () => {
    publishedFixtures({ native: false });
    writeFile(path.join(work, 'custom.mjs'), strategySource('custom', 'esm', ['x']));
    const keyed = await select({ strategy: ['./custom.mjs', 'naive'], options: { './custom.mjs': { x: 1 } } });
    expect([keyed.definition.name, keyed.options]).toEqual(['custom', { x: 1 }]);
    fs.rmSync(path.join(work, 'custom.mjs'));
    const fellBack = await select({ strategy: ['./custom.mjs', 'sab-atomics'], options: { './custom.mjs': { x: 1 } } });
    expect([fellBack.definition.name, fellBack.options]).toEqual(['sab-atomics', undefined]);
    const error = await failure({ strategy: ['./custom.mjs', 'sab-atomics'], options: { x: 1 } });
    expect(error.code).toBe('ERR_INVALID_ARG_VALUE');
    expect(error.message).toContain('"./custom.mjs" is not loaded, so its options are unknown');
    expect(error.message).toContain('"options": {"./custom.mjs": {"x": …}}');
  });

  it('the option keys cwdkit knows for the published strategies are the ones the packages declare', async () => {
    for (const name of DEFAULT_STRATEGIES) {
      const { default: definition } = await import(`@cwdkit/${name}`);
      expect([name, PUBLISHED_OPTIONS[name]]).toEqual([name, definition.options ?? []]);
    }
  });
});

describe.each(modes)('strategy objects and modules ($mode)', ({ mode, select, create }) => {
  it('a CommonJS module object or an ES module namespace is taken for its default export', async () => {
    const required = createRequire(import.meta.url)('@cwdkit/sab-atomics');
    const namespace = await import('@cwdkit/sab-atomics');
    for (const module of [required, namespace]) {
      expect((await select({ strategy: module })).definition.name).toBe('sab-atomics');
      expect((await select({ strategy: ['nowhere-installed', module] })).definition.name).toBe('sab-atomics');
      expect((await select(module)).definition.name).toBe('sab-atomics');
    }
    const provider = createCwdProviderSync({ strategy: required });
    expect(provider.strategy).toBe('sab-atomics');
    provider.close();
  });

  it('an object that is neither: the error names the function called and says what to pass', async () => {
    const config = { strategy: { createProvider() {} } } as never;
    const errors = await Promise.all(
      [select, create].map((call) =>
        call(config).then(
          () => expect.fail('expected the selection to fail'),
          (e: Error & { code: string }) => e,
        ),
      ),
    );
    const names =
      mode === 'async' ? ['selectStrategy', 'createCwdProvider'] : ['selectStrategySync', 'createCwdProviderSync'];
    errors.forEach((error, i) => {
      expect(error.code).toBe('ERR_INVALID_ARG_VALUE');
      expect(error.message.startsWith(`${names[i]}(): "strategy" must be`), error.message).toBe(true);
      expect(error.message).toContain("require('@cwdkit/sab-atomics').default");
    });
  });
});

describe.each(modes)('third-party strategies ($mode)', ({ select }) => {
  it('a relative module path in a config file is relative to that file', async () => {
    const file = writeFile(path.join(root, 'strategies', 'custom.mjs'), strategySource('custom'));
    writeFile(path.join(root, 'cwdkit.config.json'), { strategy: './strategies/custom.mjs', options: { x: 1 } });
    const chosen = await select();
    expect(chosen.definition.name).toBe('custom');
    expect(chosen.module).toBe(file);
    expect(chosen.options).toEqual({ x: 1 });
  });

  it('a relative path in the argument is relative to the working directory', async () => {
    writeFile(path.join(work, 'local.cjs'), strategySource('local', 'cjs'));
    expect((await select({ strategy: './local.cjs' })).definition.name).toBe('local');
  });

  it('absolute paths and file: URLs are accepted from the argument', async () => {
    const file = writeFile(path.join(root, 'abs.mjs'), strategySource('abs'));
    expect((await select({ strategy: file })).definition.name).toBe('abs');
    expect((await select({ strategy: pathToFileURL(file).href })).definition.name).toBe('abs');
  });

  it('a third-party package is chosen by the name it declares, never by its package name', async () => {
    installStrategyPackage(root, 'cwdkit-strategy-bare', 'bare');
    installStrategyPackage(root, '@acme/cwdkit-cwd', 'acme', 'cjs');
    expect((await select({ strategy: 'bare' })).definition.name).toBe('bare');
    expect((await select({ strategy: 'acme' })).definition.name).toBe('acme');
    process.env.CWDKIT_STRATEGY = 'acme';
    expect((await select()).definition.name).toBe('acme');
    await expect(select({ strategy: '@acme/cwdkit-cwd' })).rejects.toMatchObject({
      code: 'ERR_CWDKIT_UNKNOWN_STRATEGY',
      message: expect.stringContaining('did you mean "acme"? ("@acme/cwdkit-cwd" is the package'),
    });
  });

  // The package's name where its strategy's is meant: one code and the name it declares, from a file or the variable.
  it.each([
    ['@cwdkit/mutex', 'mutex'],
    ['@cwdkit/thread-cwd', 'thread-cwd'],
    ['@acme/cwdkit-cwd', 'acme'],
  ])('%s, from the config file or CWDKIT_STRATEGY, says "did you mean %s"', async (request, meant) => {
    installStrategyPackage(root, '@acme/cwdkit-cwd', 'acme', 'cjs');
    const said = { code: 'ERR_CWDKIT_UNKNOWN_STRATEGY', message: expect.stringContaining(`did you mean "${meant}"?`) };
    await expect(select({ strategy: request })).rejects.toMatchObject(said);
    process.env.CWDKIT_STRATEGY = request;
    await expect(select()).rejects.toMatchObject(said);
  });

  it('a package whose strategy is not the name it declares is refused', async () => {
    const dir = installStrategyPackage(root, 'cwdkit-liar', 'liar');
    writeFile(path.join(dir, 'index.mjs'), strategySource('naive'));
    await expect(select({ strategy: 'liar' })).rejects.toMatchObject({
      code: 'ERR_CWDKIT_STRATEGY_LOAD_FAILED',
      message: expect.stringContaining('declares "liar"'),
    });
  });

  it('a module whose default export is not a StrategyDefinition is refused', async () => {
    writeFile(path.join(work, 'nope.mjs'), 'export default function create() {}\n');
    await expect(select({ strategy: './nope.mjs' })).rejects.toMatchObject({
      code: 'ERR_CWDKIT_INVALID_STRATEGY',
      message: expect.stringContaining('nope.mjs'),
    });
  });

  it.each([
    './evil.mjs',
    '../evil.mjs',
    '/tmp/evil.mjs',
    '@acme/cwd/index.mjs',
    'cwdkit-strategy-bare/sub',
    'file:///tmp/evil.mjs',
    'naive,./evil.mjs',
  ])('CWDKIT_STRATEGY=%s is refused without loading anything', async (value) => {
    const marker = path.join(root, 'loaded');
    const evil = `import fs from 'node:fs'; fs.writeFileSync(${JSON.stringify(marker)}, 'x'); export default {};\n`;
    writeFile(path.join(work, 'evil.mjs'), evil);
    writeFile(path.join(root, 'app', 'evil.mjs'), evil);
    installStrategyPackage(root, '@acme/cwd', 'acme');
    process.env.CWDKIT_STRATEGY = value;
    await expect(select()).rejects.toMatchObject({
      code: 'ERR_CWDKIT_MODULE_FROM_ENV',
      message: expect.stringContaining('cwdkit.config.json'),
    });
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('CWDKIT_STRATEGY=@acme/cwdkit-cwd (a package name) is refused by name, without loading the package', async () => {
    const marker = path.join(root, 'loaded');
    const dir = installStrategyPackage(root, '@acme/cwdkit-cwd', 'acme');
    fs.appendFileSync(
      path.join(dir, 'index.mjs'),
      `import fs from 'node:fs'; fs.writeFileSync(${JSON.stringify(marker)}, 'x');\n`,
    );
    process.env.CWDKIT_STRATEGY = '@acme/cwdkit-cwd';
    await expect(select()).rejects.toMatchObject({
      code: 'ERR_CWDKIT_UNKNOWN_STRATEGY',
      message: expect.stringContaining('did you mean "acme"?'),
    });
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe.each(modes)('errors ($mode)', ({ select }) => {
  async function failure(config?: CwdkitConfig): Promise<Error & { code: string }> {
    return select(config).then(
      () => expect.fail('expected the selection to fail'),
      (error: Error & { code: string }) => error,
    );
  }

  it('an unknown name lists the known ones, from the argument, a file or the environment', async () => {
    const fromArgument = await failure({ strategy: 'nativ' });
    writeFile(path.join(work, '.cwdkitrc.json'), { strategy: 'nativ' });
    const fromFile = await failure();
    process.env.CWDKIT_STRATEGY = 'nativ';
    const fromEnvironment = await failure();
    for (const error of [fromArgument, fromFile, fromEnvironment]) {
      expect(error.code).toBe('ERR_CWDKIT_UNKNOWN_STRATEGY');
      expect(error.message).toContain('"nativ"');
      expect(error.message).toContain('did you mean "native"?');
      expect(error.message).toContain(DEFAULT_STRATEGIES.slice().sort().join(', '));
    }
  });

  it('CWDKIT_STRATEGY: a name with capitals is an unknown name, not a module', async () => {
    process.env.CWDKIT_STRATEGY = 'Naive';
    expect((await failure()).code).toBe('ERR_CWDKIT_UNKNOWN_STRATEGY');
  });

  it('an unknown name stops a preference list instead of falling through to the next entry', async () => {
    expect((await failure({ strategy: ['nativ', 'naive'] })).code).toBe('ERR_CWDKIT_UNKNOWN_STRATEGY');
  });

  it('a typo after the entry that wins stops the selection too (from the argument, a file or the environment)', async () => {
    const fromArgument = await failure({ strategy: ['naive', 'sab-atomcs'] });
    writeFile(path.join(work, '.cwdkitrc.json'), { strategy: ['naive', 'sab-atomcs'] });
    const fromFile = await failure();
    process.env.CWDKIT_STRATEGY = 'naive,sab-atomcs';
    const fromEnvironment = await failure();
    for (const error of [fromArgument, fromFile, fromEnvironment]) {
      expect(error.code).toBe('ERR_CWDKIT_UNKNOWN_STRATEGY');
      expect(error.message).toContain('did you mean "sab-atomics"?');
    }
  });

  it.each([
    [{ strategy: 42 }, '"strategy" must be a strategy name or a non-empty list of them, got number 42'],
    [{ strategy: [] }, '"strategy" must be a strategy name or a non-empty list of them, got an array'],
    [{ strategy: ['naive', 3] }, '"strategy[1]" must be a strategy name or module path, got number 3'],
    [{ strategy: 'naive', options: 'fast' }, '"options" must be an object, got "fast"'],
    [{ strategy: 'naive', stratgy: 'x' }, '"stratgy" is not a known key'],
    [{ options: {} }, '"options" needs "strategy" beside it'],
    [{}, '"strategy" is missing'],
    [['naive'], 'the content must be an object such as {"strategy": "sab-atomics"}, got an array'],
  ])(
    'config file %j: ERR_CWDKIT_INVALID_CONFIG naming the file, the key and what was expected',
    async (content, text) => {
      const file = writeFile(path.join(root, 'app', 'cwdkit.config.json'), content);
      const error = await failure();
      expect(error.code).toBe('ERR_CWDKIT_INVALID_CONFIG');
      expect(error.message).toContain(file);
      expect(error.message).toContain(text);
    },
  );

  it('package.json: keys are named under "cwdkit"', async () => {
    const file = writeFile(path.join(work, 'package.json'), { name: 'x', cwdkit: { strategy: false } });
    const error = await failure();
    expect(error).toMatchObject({ code: 'ERR_CWDKIT_INVALID_CONFIG' });
    expect(error.message).toContain(`${file}: "cwdkit.strategy" must be`);
    writeFile(file, { name: 'x', cwdkit: 'naive' });
    expect((await failure()).message).toContain('"cwdkit" must be an object');
  });

  it.each([
    ['broken JSON', 'cwdkit.config.json', '{ "strategy": ', 'is not valid JSON'],
    ['an empty file', '.cwdkitrc.json', '  \n', 'is empty'],
    ['a broken package.json', 'package.json', '{ "name": ', 'is not valid JSON'],
  ])('%s: ERR_CWDKIT_CONFIG_FILE naming the file', async (_what, name, content, text) => {
    const file = writeFile(path.join(root, 'app', name), content);
    const error = await failure();
    expect(error.code).toBe('ERR_CWDKIT_CONFIG_FILE');
    expect(error.message).toContain(file);
    expect(error.message).toContain(text);
  });

  it('a directory named like a config file: ERR_CWDKIT_CONFIG_FILE naming it', async () => {
    const file = path.join(work, 'cwdkit.config.json');
    fs.mkdirSync(file); // root cannot be refused by permissions (project.test.ts tests EACCES as nobody)
    const error = await failure();
    expect(error.code).toBe('ERR_CWDKIT_CONFIG_FILE');
    expect(error.message).toBe(`cwdkit config file ${file} is not a regular file`);
  });

  it('a broken config file does not matter when the argument or the environment chooses', async () => {
    writeFile(path.join(work, 'cwdkit.config.json'), '{');
    expect((await select({ strategy: 'naive' })).definition.name).toBe('naive');
    process.env.CWDKIT_STRATEGY = 'mutex';
    expect((await select()).definition.name).toBe('mutex');
  });

  it.each([
    [42, 'ERR_INVALID_ARG_TYPE'],
    [null, 'ERR_INVALID_ARG_TYPE'],
    [{ strategy: 7 }, 'ERR_INVALID_ARG_VALUE'],
    [{ options: { a: 1 } }, 'ERR_INVALID_ARG_VALUE'],
  ])('a bad argument %j throws %s', async (config, code) => {
    const error = await failure(config as CwdkitConfig);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.code).toBe(code);
  });
});

describe('loading', () => {
  it('createCwdProviderSync loads an ES module strategy with require()', () => {
    expect(createCwdProviderSync({ strategy: 'naive' }).strategy).toBe('naive'); // index.mjs
    expect(createCwdProviderSync({ strategy: 'mutex' }).strategy).toBe('mutex'); // index.cjs
  });

  it('an error thrown by create() is not swallowed: options are checked by the strategy that won', async () => {
    writeFile(
      path.join(work, 'strict.mjs'),
      'export default { specVersion: 1, name: "strict", description: "d", options: ["x"], create(o) { throw Object.assign(new TypeError("bad option"), { code: "ERR_INVALID_ARG_VALUE" }); } };\n',
    );
    await expect(createCwdProvider({ strategy: ['./strict.mjs', 'naive'], options: { x: 1 } })).rejects.toMatchObject({
      message: 'bad option',
    });
  });
});
