#!/usr/bin/env bash
# Contribute a new strategy, proven: scaffold one in a scratch clone of this repository, install, and run its tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone --quiet "$root" "$work/repo"
cd "$work/repo"
npm run --silent new-strategy -- scaffold-probe
npm install --no-audit --no-fund --prefer-offline --loglevel=error
npx turbo run test --filter=@cwdkit/scaffold-probe --output-logs=new-only
