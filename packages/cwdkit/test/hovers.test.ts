// What an editor shows from the emitted .d.ts files (dist), read through the TypeScript checker as an editor's language
// service reads them: the doc comments of the contract and of each strategy package's exports on hover, and options
// typed by the strategy object passed in.
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STRATEGIES } from '../src/index.js';
import { packageRoot } from './helpers.js';

const imports = DEFAULT_STRATEGIES.map(
  (name, i) => `import s${i}, { strategy as t${i}, createProvider as c${i} } from '@cwdkit/${name}';`,
);
const source = `${imports.join('\n')}
import type { CwdProvider } from '@cwdkit/core';
declare const provider: CwdProvider;
provider.cwd();
export {};
`;

/** A program of one file, `source`, in this package's test folder, that imports the workspace's built packages. */
function compile(source: string): { program: ts.Program; file: ts.SourceFile } {
  const name = path.join(packageRoot, 'test', '__dist-types__.ts');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.esnext.d.ts'],
    strict: true,
    noEmit: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile;
  host.readFile = (file) => (file === name ? source : readFile.call(host, file));
  host.fileExists = (
    (exists) => (file: string) =>
      file === name || exists.call(host, file)
  )(host.fileExists);
  const program = ts.createProgram([name], options, host);
  return { program, file: program.getSourceFile(name) as ts.SourceFile };
}

function hovers(): Map<string, string> {
  const { program, file } = compile(source);
  const checker = program.getTypeChecker();
  const found = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (symbol) found.set(node.text, ts.displayPartsToString(symbol.getDocumentationComment(checker)));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('hovers from the emitted .d.ts', () => {
  const found = hovers();
  it('CwdProvider and CwdProvider.cwd() say what they are', () => {
    expect(found.get('CwdProvider')).toMatch(/^The current working directory of the process/);
    expect(found.get('cwd')).toMatch(/^The current working directory, as process\.cwd\(\) gives it/);
  });

  it.each(DEFAULT_STRATEGIES.map((name, i) => [name, i] as const))(
    '@cwdkit/%s: its default export, strategy and createProvider',
    (name, i) => {
      for (const local of [`s${i}`, `t${i}`, `c${i}`]) {
        expect(found.get(local), `${name}: ${local}`).toMatch(/\S/);
      }
      expect(found.get(`c${i}`)).toContain(name === 'native' ? 'native' : `A ${name} CwdProvider`);
    },
  );
});

describe('options typed by the strategy object, from the emitted .d.ts', () => {
  it("the issue's example: native's options are checked, a module object too, and names and lists stay open", () => {
    const lines = [
      "import native, * as nativeModule from '@cwdkit/native';",
      "import sabAtomics from '@cwdkit/sab-atomics';",
      "import { createCwdProvider, createCwdProviderSync, type StrategyModule } from 'cwdkit';",
      "void createCwdProvider({ strategy: native, options: { mode: 'watch', intervalMs: 5 } });",
      "void createCwdProvider({ strategy: native, options: { mode: 'watc' } });",
      "createCwdProviderSync({ strategy: nativeModule, options: { mdoe: 'cached' } });",
      "createCwdProviderSync({ strategy: sabAtomics, options: { mode: 'cached' } });",
      'createCwdProviderSync({ strategy: sabAtomics });',
      "void createCwdProvider({ strategy: ['native', 'sab-atomics'], options: { native: { mode: 'watc' } } });",
      'export type Module = StrategyModule;',
    ];
    const { program, file } = compile(lines.join('\n'));
    const failing = program
      .getSemanticDiagnostics(file)
      .map((diagnostic) => file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1);
    expect([...new Set(failing)]).toEqual([5, 6, 7]);
  });
});
