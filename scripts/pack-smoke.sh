#!/usr/bin/env bash
# Install single packages the way a user does: npm pack cwdkit, core, one pure-JS strategy and the native one, install
# the tarballs into a fresh project outside the workspace, and use them from ESM, CommonJS, Bun and Deno, the `cwdkit`
# bin and `--import cwdkit/register` included.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bin="$root/node_modules/.bin"

mkdir -p "$work/tarballs" "$work/app"
for name in cwdkit @cwdkit/core @cwdkit/main-thread-cache @cwdkit/native; do
  npm pack --silent --workspace "$name" --pack-destination "$work/tarballs" >/dev/null
done
ls "$work/tarballs"

cd "$work/app"
echo '{ "name": "cwdkit-pack-smoke", "private": true, "version": "1.0.0", "cwdkit": { "strategy": "native" } }' > package.json
npm install --no-audit --no-fund --loglevel=error "$work"/tarballs/*.tgz

cat > check.mjs <<'JS'
import path from 'node:path';
import process from 'node:process';
import { createProvider as cached } from '@cwdkit/main-thread-cache';
import { createProvider as native } from '@cwdkit/native';
import { createCwdProvider, installed } from 'cwdkit';
if ((await createCwdProvider()).strategy !== 'native') throw new Error('cwdkit did not select native');
if (installed() !== (process.env.EXPECT_INSTALLED || undefined)) throw new Error(`installed: ${installed()}`);
const runtime = globalThis.Deno ? 'deno' : globalThis.Bun ? 'bun' : 'node';
for (const provider of [cached(), native()]) {
  if (provider.cwd() !== process.cwd()) throw new Error(`${provider.strategy}: ${provider.cwd()} !== ${process.cwd()}`);
  if (provider.resolve('src', 'a.ts') !== path.resolve('src', 'a.ts')) throw new Error(`${provider.strategy}: resolve`);
  provider.close();
}
console.log(`ok - ESM on ${runtime}`);
JS
cat > check.cjs <<'JS'
const { createProvider: cached } = require('@cwdkit/main-thread-cache');
const { createProvider: native } = require('@cwdkit/native');
const { SPEC_VERSION } = require('@cwdkit/core');
const { createCwdProviderSync } = require('cwdkit');
if (createCwdProviderSync().strategy !== 'native') throw new Error('cwdkit did not select native');
for (const provider of [cached(), native()]) {
  if (provider.cwd() !== process.cwd()) throw new Error(`${provider.strategy}: ${provider.cwd()} !== ${process.cwd()}`);
  provider.close();
}
if (SPEC_VERSION !== 1) throw new Error('SPEC_VERSION');
console.log('ok - CommonJS on node');
JS
node check.mjs
node check.cjs
"$bin/bun" check.mjs
"$bin/deno" run -A check.mjs
EXPECT_INSTALLED=native node --import cwdkit/register check.mjs
npx --no-install cwdkit which | grep -q '^strategy  *native$' && echo 'ok - cwdkit which (bin)'
echo "6 passed, 0 failed"
