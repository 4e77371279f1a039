// Random sequences of operations against the OS (fast-check).
import assert from 'node:assert/strict';
import path from 'node:path';
import { readOsCwd } from '@cwdkit/core';
import fc from 'fast-check';
import type { Check } from './support.js';
export const differentialChecks: readonly Check[] = [
  {
    title: 'random sequences of chdir, cwd, invalidate and resolve match the OS',
    budgetMs: 120_000,
    run(context) {
      const dirs = ['r1', 'r2', 'r1/inner', 'r2/ä ö'].map((name) => context.dir(...name.split('/')));
      context.file('r1/file');
      const targets = fc.constantFrom(
        ...dirs,
        'inner',
        '..',
        '.',
        'missing',
        'file',
        '',
        path.join(context.scratch, 'r1'),
      );
      const step = fc.oneof(
        targets.map((target) => ({ op: 'chdir' as const, target })),
        fc.constant({ op: 'cwd' as const }),
        fc.constant({ op: 'invalidate' as const }),
        fc.constant({ op: 'other provider' as const }),
        fc.array(fc.constantFrom('a', '..', '.', '', 'b/c', '/abs', 'x/'), { maxLength: 3 }).map((segments) => ({
          op: 'resolve' as const,
          segments,
        })),
      );
      fc.assert(
        fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
          const [provider, other] = [
            context.strategy.create(context.options),
            context.strategy.create(context.options),
          ];
          try {
            provider.chdir(context.scratch);
            for (const step of steps) {
              const truth = readOsCwd();
              if (step.op === 'chdir') {
                try {
                  provider.chdir(step.target);
                } catch (error) {
                  assert.equal(typeof (error as { code?: unknown }).code, 'string');
                  assert.equal(readOsCwd(), truth, 'a failed chdir moved the OS cwd');
                }
                assert.equal(provider.cwd(), readOsCwd());
              } else if (step.op === 'cwd') {
                assert.equal(provider.cwd(), truth);
              } else if (step.op === 'invalidate') {
                provider.invalidate();
                assert.equal(provider.cwd(), truth);
              } else if (step.op === 'other provider') {
                assert.equal(other.cwd(), truth);
              } else {
                assert.equal(provider.resolve(...step.segments), path.resolve(truth, ...step.segments));
              }
            }
          } finally {
            provider.chdir(context.scratch);
            provider.close();
            other.close();
          }
        }),
        { numRuns: 150 },
      );
    },
  },
];
