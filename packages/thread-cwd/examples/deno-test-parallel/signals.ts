// The two test modules meet here, so that each checks its cwd while the other is running: files in a folder named
// after the process (both modules are threads of one `deno test --parallel` process, so they share Deno.pid).
const folder = `${Deno.env.get('TMPDIR') ?? '/tmp'}/cwdkit-deno-test-example-${Deno.pid}`;
Deno.mkdirSync(folder, { recursive: true });

export function signal(name: string): void {
  Deno.writeTextFileSync(`${folder}/${name}`, '');
}

export async function waitFor(name: string): Promise<void> {
  for (;;) {
    try {
      await Deno.stat(`${folder}/${name}`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
