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
    clean: ['!cli.js', '!register.*'], // the other builds write cli.js and register.cjs at the same time
    // No shims: the CommonJS build finds itself through `module.filename` (src/strategies.ts ownFile), and a shim's
    // `__filename` at load would crash a copy bundled into an ES module.
    target: 'node20',
    plugins: [processGlobal],
  },
  {
    // The preload of Node and Bun: CommonJS (see src/register.ts), one file, the strategy loaded with require().
    entry: ['src/register.ts'],
    format: ['cjs'],
    dts: true,
    // Every process under the flag compiles this file: without comments and spaces V8 has ~60% less to scan. Names
    // stay (the installed functions are named cwd, chdir and resolve, like the runtime's).
    minifyWhitespace: true,
    minifySyntax: true,
    target: 'node20',
    plugins: [processGlobal],
  },
  {
    // Deno's preload (the "deno" condition of "./register"): an ES module, the strategy loaded with import().
    entry: { register: 'src/register-deno.ts' },
    format: ['esm'],
    outExtension: () => ({ js: '.mjs' }),
    minifyWhitespace: true,
    minifySyntax: true,
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
