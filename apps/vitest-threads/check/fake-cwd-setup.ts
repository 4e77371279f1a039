// What mock-cwd and vi.spyOn(process, 'cwd') give: a process.cwd() of the worker's own that nothing else follows.
// check/example.test.ts runs the example with it to show that the example's tests catch such a fake.
import path from 'node:path';

let cwd = process.cwd();
process.chdir = (directory: string) => {
  cwd = path.resolve(cwd, directory);
};
process.cwd = () => cwd;
