import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // CwdProvider extends Disposable: with this reference a user needs neither @types/node nor "esnext.disposable" in lib
  // (rollup-plugin-dts drops one written in the source).
  dts: { banner: '/// <reference lib="esnext.disposable" />' },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
