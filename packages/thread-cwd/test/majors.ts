// The Node majors that the per-major tests of this package run on. Node 24 (the Active LTS) on every run; Node 22 and
// 26 where CWDKIT_CONFORMANCE_RUNTIMES names them (npm run test:release; npm test sets bun,deno in vitest.shared.ts),
// and on every run where it is unset.
export const MAJORS = (['node22', 'node24', 'node26'] as const).filter((name) => {
  const chosen = process.env.CWDKIT_CONFORMANCE_RUNTIMES;
  return (
    name === 'node24' ||
    chosen === undefined ||
    chosen
      .split(',')
      .map((part) => part.trim())
      .includes(name)
  );
});
