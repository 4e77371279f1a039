import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/setup.ts', 'src/start.ts'],
  format: ['esm', 'cjs'],
  // One copy of the strategy shared by both entries in each format (CommonJS included), not one bundled into each.
  splitting: true,
  // No shims: the CommonJS build finds its folder through `module.filename` (src/workers.ts ownFolder); a shim's
  // `__filename` at load crashes a CJS copy bundled into an ES module. With splitting, the CJS chunks are made from
  // ESM ones and would keep `import.meta` (a SyntaxError in CommonJS): there it is defined away.
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': 'undefined' };
  },
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
