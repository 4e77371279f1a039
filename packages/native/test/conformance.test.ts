import { describeCwdStrategy } from '@cwdkit/conformance/vitest';

describeCwdStrategy('@cwdkit/native', { options: { mode: 'strict' } });
describeCwdStrategy('@cwdkit/native', { options: { mode: 'cached' } });
describeCwdStrategy('@cwdkit/native', { options: { mode: 'watch' } });
