// What the flag (register.ts) does when the main thread's selection fails at start: one line, exit code 1. A worker's
// failure is thrown instead, so that its app gets the Worker's 'error' event.

const firstLine = (text: string) => (text.split('\n')[0] ?? '').trim();

/**
 * The selection's error as one sentence: which strategy, why, what to do. A failed preference list lists what each
 * entry met on one line instead of an AggregateError's stacks.
 */
export function sentence(error: unknown): string {
  const { message = String(error), code } = (error ?? {}) as { message?: string; code?: unknown };
  const suffix = typeof code === 'string' ? ` [${code}]` : '';
  if (code !== 'ERR_CWDKIT_NO_STRATEGY') return `${firstLine(message)}${suffix}`;
  const [head = '', ...entries] = message.split('\n  - ');
  const missing: string[] = [];
  const failed: string[] = [];
  let advice: string | undefined;
  for (const entry of entries) {
    const [, name = '', reason = ''] = /^([^:]*): (.*)$/s.exec(entry) ?? [];
    const install = /is not installed: (.*)$/.exec(firstLine(reason));
    if (install) {
      missing.push(name);
      advice ??= install[1];
    } else failed.push(`${name} (${firstLine(reason).replace(/\.$/, '')})`);
  }
  const parts = [
    ...(failed.length ? [`${failed.join(', ')} failed to load`] : []),
    ...(missing.length ? [`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed`] : []),
  ];
  return `${head.replace(/:$/, '')}: ${parts.join('; ')}${advice ? `; install one: ${advice}` : ''}${suffix}`;
}

/** Stops the program with the selection's error as one line. */
export function stop(error: unknown): never {
  console.error(`cwdkit/register: ${sentence(error)}`);
  process.exit(1);
}
