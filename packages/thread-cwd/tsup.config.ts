import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  format: ['esm', 'cjs'],
  sourcemap: true,
  target: 'node20',
};

export default defineConfig([
  {
    ...shared,
    entry: ['src/index.ts'],
    splitting: false,
    // No shims: the CommonJS build finds its folder through `module.filename` (src/worker-class.ts ownFolder); a shim's
    // `__filename` at load crashes a CJS copy bundled into an ES module. `import.meta` is a SyntaxError in CommonJS:
    // there it is defined away.
    esbuildOptions(options, { format }) {
      if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': 'undefined' };
    },
    dts: { entry: ['src/index.ts', 'src/setup.ts', 'src/start.ts'] },
    // The entries below build at the same time into the same folder: their files are not this build's to clean.
    clean: ['!{start,setup,deno-early}.{js,cjs}', '!{start,setup,deno-early}.{js,cjs}.map'],
  },
  {
    ...shared,
    // cwdkit/register loads it at a Node main thread's start: one file of its own (no chunk shared with the index,
    // each file a process loads costs it ~0.3-0.8 ms); its copy of worker-class.ts shares its state on globalThis.
    entry: ['src/start.ts'],
    splitting: false,
    dts: false,
    clean: false,
  },
  {
    ...shared,
    // The setup entry: one file per format that loads nothing else until the install (in a worker in kernel mode, the
    // first chdir: early.ts), cwdkit/defer bundled in; then it loads cwdkit/install and the index itself. Its ESM build awaits
    // the ES modules where it installs at once (src/setup.ts), its CJS build requires (src/setup-cjs.ts).
    entry: { setup: 'src/setup.ts' },
    format: ['esm'],
    splitting: false,
    // Every worker compiles this file: without comments and spaces V8 has less to scan (as cwdkit's register).
    minifyWhitespace: true,
    minifySyntax: true,
    noExternal: ['cwdkit/defer'],
    external: ['./index.js', './index.cjs', './deno-early.js'],
    target: 'node22', // top-level await (Node 20.16+ runs it; esbuild's node20 target does not know that)
    dts: false,
    clean: false,
  },
  {
    ...shared,
    entry: { setup: 'src/setup-cjs.ts' },
    format: ['cjs'],
    splitting: false,
    minifyWhitespace: true,
    minifySyntax: true,
    noExternal: ['cwdkit/defer'],
    external: ['./index.cjs', './deno-early.cjs'],
    esbuildOptions(options) {
      options.define = { ...options.define, 'import.meta.url': 'undefined' };
    },
    dts: false,
    clean: false,
  },
  {
    ...shared,
    // The setup entry's step on Deno (deno-early.ts), a file of its own so that a Node worker does not parse it.
    entry: ['src/deno-early.ts'],
    splitting: false,
    minifyWhitespace: true,
    minifySyntax: true,
    noExternal: ['cwdkit/defer'],
    dts: false,
    clean: false,
  },
]);
