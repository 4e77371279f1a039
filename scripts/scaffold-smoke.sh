#!/usr/bin/env bash
# Contribute a new strategy, proven: scaffold one in a scratch clone of this repository, install, run its tests, then
# select it by the name it declares (cwdkit) and measure it (the bench), as CONTRIBUTING says.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet "$root" "$work/repo"
cd "$work/repo"
npm run --silent new-strategy -- ring-buffer
npm install --no-audit --no-fund --prefer-offline --loglevel=error
npx turbo run test --filter=@cwdkit/ring-buffer --output-logs=new-only
npx turbo run build --output-logs=errors-only

# Selectable by its bare name, from the argument, the environment and the CLI.
node --input-type=module -e "
import { createCwdProvider } from 'cwdkit';
const provider = await createCwdProvider({ strategy: 'ring-buffer' });
if (provider.strategy !== 'ring-buffer') throw new Error('selected ' + provider.strategy);
console.log('selected by name:', provider.strategy);
"
CWDKIT_STRATEGY=ring-buffer npx --no-install cwdkit which | grep -q '^strategy  *ring-buffer$'
echo 'cwdkit which: ring-buffer'

# Measured by the bench.
npm run bench -- --strategy ring-buffer --scenario cwd-hot --quick
