// This module reads its cwd and relative files while chdir_test.ts is in ./inner: it keeps the project folder.
import { signal, waitFor } from './signals.ts';

const here = new URL('.', import.meta.url).pathname.replace(/\/$/, '');

Deno.test("another module's chdir does not move this one", async () => {
  await waitFor('moved');
  try {
    if (Deno.cwd() !== here) throw new Error(`Deno.cwd(): ${Deno.cwd()}`);
    const name = (await Deno.readTextFile('name.txt')).trim();
    if (name !== 'root') throw new Error(`name.txt: ${name}`);
    if (Deno.readTextFileSync('name.txt').trim() !== 'root') throw new Error('readTextFileSync');
  } finally {
    signal('read');
  }
});
