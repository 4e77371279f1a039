import { describeThreadSafety } from './fixtures/thread-safety.js';

describeThreadSafety('@cwdkit/sab-atomics', 'sab-atomics.v1');
