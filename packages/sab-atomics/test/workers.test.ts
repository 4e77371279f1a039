import { describeThreadSafety } from '@cwdkit/conformance/thread-safety';

describeThreadSafety('@cwdkit/sab-atomics', { sharedMemoryKey: 'sab-atomics.v1' });
