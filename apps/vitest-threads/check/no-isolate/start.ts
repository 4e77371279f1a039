import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

const app = fs.realpathSync(path.join(import.meta.dirname, '../..'));
export const fixtures = (name: string) => path.join(app, 'fixtures', name);

/** A file starts in the example's folder when it runs first, else where the other file left the worker (`twin`). */
export function expectStart(twin: string): void {
  const start = process.cwd();
  expect([app, path.join(app, twin)]).toContain(start);
  if (start !== app) expect(fs.readFileSync('data.txt', 'utf8')).toBe(`${twin}\n`);
}
