import { describeCwdStrategy } from '@cwdkit/conformance/vitest';

describeCwdStrategy('@cwdkit/thread-cwd');
