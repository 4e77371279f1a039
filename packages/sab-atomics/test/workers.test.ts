import { describeThreadSafety } from '@cwdkit/conformance/thread-safety';

// A cold worker of sab-atomics runs core's coldWorkerCwd() unchanged, as mutex's does: mutex's workers.test.ts storms
// it on every runtime (and on every Node major in npm run test:release), so its storm is not repeated here.
describeThreadSafety('@cwdkit/sab-atomics', { sharedMemoryKey: 'sab-atomics.v1', coldStorm: false });
