// What an editor shows on hover: the doc comments of the contract and of each strategy package's exports, read from
// the emitted .d.ts files (dist) through the TypeScript checker, as an editor's language service reads them.
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

function hovers(): Map<string, string> {
  const file = path.join(packageRoot, 'test', '__hovers__.ts');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile;
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists.call(host, name)
  )(host.fileExists);
  const program = ts.createProgram([file], options, host);
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
  visit(program.getSourceFile(file) as ts.SourceFile);
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
