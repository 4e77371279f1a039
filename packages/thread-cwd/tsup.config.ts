import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  format: ['esm', 'cjs'],
  sourcemap: true,
  target: 'node20',
};

export default defineConfig([
  {
    ...shared,
    entry: ['src/index.ts', 'src/setup.ts'],
    // One copy of the strategy shared by both entries in each format (CommonJS included), not one bundled into each.
    splitting: true,
    // No shims: the CommonJS build finds its folder through `module.filename` (src/workers.ts ownFolder); a shim's
    // `__filename` at load crashes a CJS copy bundled into an ES module. With splitting, the CJS chunks are made from
    // ESM ones and would keep `import.meta` (a SyntaxError in CommonJS): there it is defined away.
    esbuildOptions(options, { format }) {
      if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': 'undefined' };
    },
    dts: { entry: ['src/index.ts', 'src/setup.ts', 'src/start.ts'] },
    // The start entry below builds at the same time into the same folder: its files are not this build's to clean.
    clean: ['!start.{js,cjs}', '!start.{js,cjs}.map'],
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
]);
