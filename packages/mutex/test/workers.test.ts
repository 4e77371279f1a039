// The thread-safety tests are written once, beside @cwdkit/sab-atomics's tests, and run here for this strategy.
import { describeThreadSafety } from '../../sab-atomics/test/fixtures/thread-safety.js';

describeThreadSafety('@cwdkit/mutex', 'mutex.v1');
