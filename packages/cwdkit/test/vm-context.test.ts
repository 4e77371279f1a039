// A test runner that runs each test file in a vm context (jest; vitest's vm pools) loads cwdkit again there: its own
// copy of cwdkit and core, a globalThis of its own, and under jest a copy of `process` (jest-util's deepCyclicCopy:
// a new object with the same prototype and functions, but a getBuiltinModule of its own). That copy must still see the thread's one record: what is installed (by install()
// in the main realm, or by the flag's deferred load), so that installed() tells the truth there and a second strategy
// is refused, as in the main realm. The context here is built as jest builds it; the modules are real cwdkit builds.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dist, packageRoot, run, scratchDir, writeFile } from './helpers.js';

const node24 = path.join(packageRoot, '../../node_modules/node24/bin/node');
const work = scratchDir('cwdkit-vm-context-');
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

// A context with jest's process copy, and a CommonJS loader that compiles every non-builtin file in it.
const app = `const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');
const { createRequire, isBuiltin } = require('node:module');
const copy = Object.create(Object.getPrototypeOf(process));
Object.defineProperties(copy, Object.getOwnPropertyDescriptors(process));
copy.getBuiltinModule = (id) => process.getBuiltinModule(id); // jest 30's own, which its module registry can mock
const context = vm.createContext({ process: copy, Buffer, URL, console, setTimeout, clearTimeout, queueMicrotask, TextDecoder });
const loaded = new Map();
const load = (from) => (specifier) => {
  if (isBuiltin(specifier)) return require(specifier);
  const file = createRequire(from).resolve(specifier);
  if (!loaded.has(file)) {
    const module = { exports: {}, filename: file, require: undefined };
    module.require = load(file);
    loaded.set(file, module);
    vm.runInContext('(function (exports, require, module, __filename, __dirname) {' + fs.readFileSync(file, 'utf8') + '\\n})', context, { filename: file })(module.exports, load(file), module, file, path.dirname(file));
  }
  return loaded.get(file).exports;
};
const outside = require(${JSON.stringify(path.join(dist, 'index.cjs'))});
if (process.argv[2] === 'install') outside.install(outside.createCwdProviderSync({ strategy: 'naive' }));
const inside = load(${JSON.stringify(path.join(dist, 'index.cjs'))})(${JSON.stringify(path.join(dist, 'index.cjs'))});
const report = { copies: inside !== outside, installed: inside.installed() ?? null };
try {
  inside.install(inside.createCwdProviderSync({ strategy: 'sab-atomics' }));
  report.second = 'installed';
} catch (error) {
  report.second = error.code;
}
report.outside = outside.installed() ?? null;
console.log(JSON.stringify(report));
`;

describe('a vm context of a test runner (jest-like: its own globalThis, a copy of process)', () => {
  // What the same calls say in the main realm: the context's copy of cwdkit is another module, with the same answers.
  const asOutside = { copies: true, installed: 'naive', second: 'ERR_CWDKIT_ALREADY_INSTALLED', outside: 'naive' };
  const script = writeFile(path.join(work, 'app.cjs'), app);
  writeFile(path.join(work, 'package.json'), { name: 'app', private: true });

  it('install() in the main realm: installed() in the context names it, and a second install is refused', async () => {
    const result = await run(node24, [script, 'install'], { cwd: work });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(asOutside);
  });

  it("under the flag: installed() in the context runs the flag's deferred load, and names what it installed", async () => {
    const result = await run(node24, ['--import', path.join(dist, 'register.mjs'), script], {
      cwd: work,
      env: { CWDKIT_STRATEGY: 'naive' },
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(asOutside);
  });
});
