import { describeThreadSafety } from '@cwdkit/conformance/thread-safety';

// The cold worker's storm runs here for core's coldWorkerCwd(), which sab-atomics' cold workers run too (its
// workers.test.ts leaves the storm out): keep it here while both use it unchanged.
describeThreadSafety('@cwdkit/mutex', { sharedMemoryKey: 'mutex.v1' });
