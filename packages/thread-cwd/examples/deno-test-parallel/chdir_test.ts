// This module moves into ./inner and stays there while reads_test.ts runs: with thread-cwd's setup entry preloaded,
// that moves this module's thread alone.
import { signal, waitFor } from './signals.ts';

const here = new URL('.', import.meta.url).pathname.replace(/\/$/, '');

Deno.test('a chdir moves only this test module', async () => {
  Deno.chdir('inner');
  signal('moved');
  await waitFor('read');
  if (Deno.cwd() !== `${here}/inner`) throw new Error(`Deno.cwd(): ${Deno.cwd()}`);
  const name = (await Deno.readTextFile('name.txt')).trim();
  if (name !== 'inner') throw new Error(`name.txt: ${name}`);
  Deno.chdir('..');
});
