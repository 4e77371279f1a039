import { describeThreadSafety } from '@cwdkit/conformance/thread-safety';

describeThreadSafety('@cwdkit/mutex', { sharedMemoryKey: 'mutex.v1' });
