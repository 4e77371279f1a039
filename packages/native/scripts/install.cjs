// npm's install script for @cwdkit/native. node-gyp-build keeps a prebuilt binary that loads, or compiles the addon.
// When neither works (no prebuild for this platform and no C++ toolchain), the install still succeeds: importing the
// package then throws ERR_CWDKIT_NATIVE_UNAVAILABLE, and cwdkit falls back to the next strategy listed.
const { spawnSync } = require('node:child_process');

const bin = require.resolve('node-gyp-build/bin.js');
const result = spawnSync(process.execPath, [bin], { stdio: 'inherit' });
if (result.status !== 0) {
  console.warn(
    '@cwdkit/native: no prebuilt addon for this platform and it could not be compiled (see above). ' +
      'The install goes on; importing @cwdkit/native will throw ERR_CWDKIT_NATIVE_UNAVAILABLE. ' +
      'To build it: install Python 3, make and a C++17 compiler, then run `npm rebuild @cwdkit/native`.',
  );
}
