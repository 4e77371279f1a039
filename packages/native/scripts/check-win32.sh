#!/bin/sh
# Compiles src/cwdkit.cc for Windows (x64) with MinGW-w64, syntax only, against the installed Node headers and
# node-addon-api: the Windows code paths (GetCurrentDirectoryW, CreateThread, SRW locks) are checked here even though
# nothing runs on Windows. With PLANT=1 it adds a Windows-only error and must fail (proof that the check bites).
# Installs MinGW-w64 with apt-get when it is missing (CI runs as root).
set -eu
cd "$(dirname "$0")/.."
# The POSIX thread model: node-addon-api's napi.h needs std::mutex, which GCC 12's win32 model lacks (MSVC has it).
compiler=x86_64-w64-mingw32-g++-posix
if ! command -v "$compiler" >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq --no-install-recommends g++-mingw-w64-x86-64-posix >/dev/null
fi
node_include="$(node -p "require('path').join(process.execPath, '..', '..', 'include', 'node')")"
addon_include="$(node -p "require('node-addon-api').include_dir")"
test -f "$node_include/node_api.h" || { echo "check-win32: no Node headers in $node_include" >&2; exit 1; }
source=src/cwdkit.cc
if [ "${PLANT:-0}" = 1 ]; then
  source="$(mktemp --suffix=.cc)"
  trap 'rm -f "$source"' EXIT
  { cat src/cwdkit.cc; printf '#ifdef _WIN32\nstatic int planted = GetCurrentDirectoryW(nullptr);\n#endif\n'; } >"$source"
fi
"$compiler" -fsyntax-only -std=c++17 -Wall -Wextra -Werror -DNAPI_VERSION=8 -DNAPI_DISABLE_CPP_EXCEPTIONS \
  -DNODE_ADDON_API_DISABLE_DEPRECATED -fno-exceptions -I"$node_include" -I"$addon_include" "$source"
echo "check-win32: $source compiles for x86_64-w64-mingw32"
