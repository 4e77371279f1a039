import { describeCwdStrategy } from '@cwdkit/conformance/vitest';

describeCwdStrategy('@cwdkit/main-thread-cache');
