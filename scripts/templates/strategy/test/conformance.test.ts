import { describeCwdStrategy } from '@cwdkit/conformance/vitest';

describeCwdStrategy('@cwdkit/__NAME__');
