import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/kernel.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // No shims: the CJS build finds itself through `module.filename` (src/binding.ts), and a shim's `__filename` at
  // load would crash a CJS copy bundled into an ES module.
});
