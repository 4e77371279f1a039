import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['plugins']>[number];

/**
 * `import process from 'node:process'` as the global object (the same object). In the CommonJS build a default import
 * of a builtin becomes esbuild's interop, which copies every property of `process` at load: measured ~4 ms of Node's
 * start-up and ~8 ms of Bun's, paid by every process that preloads cwdkit/register. In the ESM build, importing
 * node:process makes Node load everything behind its lazy getters (the report, streams).
 */
const processGlobal: Plugin = {
  name: 'process-global',
  renderChunk(code) {
    return {
      code: code
        .replace(/__toESM\(require\("(?:node:)?process"\),\s*1\)/g, '{ default: globalThis.process }')
        .replace(/\bimport (\w+) ?from ?"(?:node:)?process";/g, 'const $1 = globalThis.process;'),
    };
  },
};

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: ['!cli.js', '!register.*', '!defer.*', '!install.*'], // the other builds write these at the same time
    // No shims: the CommonJS build finds itself through `module.filename` (src/strategies.ts ownFile), and a shim's
    // `__filename` at load would crash a copy bundled into an ES module.
    target: 'node20',
    plugins: [processGlobal],
  },
  {
    // The flag's start-up file (src/register.ts), one source: dist/register.mjs for --import, Bun and Deno (in
    // node_modules an ES module costs Node ~2 MiB less than a CommonJS one), dist/register.cjs for --require. It
    // bundles only src/defaults.ts and src/preload.ts: the selection, core and the strategy load on first use, from
    // dist/index.cjs.
    entry: ['src/register.ts'],
    format: ['esm', 'cjs'],
    outExtension: ({ format }) => ({ js: format === 'esm' ? '.mjs' : '.cjs' }),
    dts: true,
    // Every process under the flag compiles this file: without comments and spaces V8 has less to scan. Names
    // stay (the stubs take the names of the runtime's own).
    minifyWhitespace: true,
    minifySyntax: true,
    target: 'node20',
  },
  {
    // `cwdkit/defer`: the stubs of an install deferred to the first use, for a strategy's own start-up entry
    // (@cwdkit/thread-cwd's setup in a worker bundles it). It loads nothing.
    entry: ['src/defer.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node20',
  },
  {
    // `cwdkit/install`: install() and installed() alone, for a strategy's own start-up entry that installs at a worker's
    // first use (@cwdkit/thread-cwd's setup): ~9 KB to load instead of the index's 36 (the selection, the config files).
    // Its record is the thread's (core's threadState), shared with the index's copy.
    entry: ['src/install.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node20',
    plugins: [processGlobal],
  },
  {
    // The CLI: ESM only, and it imports the package's own build instead of bundling a second copy.
    entry: ['src/cli.ts'],
    format: ['esm'],
    external: ['./index.js'],
    target: 'node20',
  },
]);
