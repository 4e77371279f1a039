import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** One line per test file for check/example.test.ts: how each file and each test ended, and every error's code. */
export interface FileResult {
  file: string;
  state: string;
  errors: { name?: string; code?: unknown; message: string }[];
  tests: { name: string; state: string; errors: { name?: string; code?: unknown; message: string }[] }[];
}

const brief = (error: { name?: string; message: string; code?: unknown }) => ({
  name: error.name,
  code: error.code,
  message: error.message,
});

/** Writes the run's results as JSON to the file named by CWDKIT_EXAMPLE_RESULTS. */
export default class ResultsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const results: FileResult[] = modules.map((module) => ({
      file: path.basename(module.moduleId),
      state: module.state(),
      errors: module.errors().map(brief),
      tests: [...module.children.allTests()].map((test) => ({
        name: test.name,
        state: test.result().state,
        errors: (test.result().errors ?? []).map(brief),
      })),
    }));
    fs.writeFileSync(String(process.env.CWDKIT_EXAMPLE_RESULTS), JSON.stringify(results, null, 2));
  }
}
