#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# The WebAssembly module's tests: builds it (wasm/build.sh into build/wasm, installing Debian's
# emscripten when emcc is missing), installs chess.js and chessops from tests/wasm's lockfile
# (scripts/npm.sh: npm ci, the npm registry only), then runs node's test runner on
# tests/wasm/*.test.mjs — or runs one script (bench/wasm.mjs) with the same setup.
# usage: tests/wasm/run.sh SOURCE_DIR [ARBITER] [FILE.test.mjs...]
#        tests/wasm/run.sh SOURCE_DIR [ARBITER] --script FILE.mjs [ARGS...]
# ARBITER (the command, for comparing error messages with `arbiter query`) may be "".
set -eu
top=$(cd "$1" && pwd)
arbiter=${2:-}
[ $# -ge 2 ] && shift 2 || shift $#
here="$top/tests/wasm"
case $arbiter in "" | /*) ;; *) arbiter=$(pwd)/$arbiter ;; esac
sh "$top/wasm/build.sh" "$top/build/wasm"
sh "$top/scripts/npm.sh" "$here"
export ARBITER_WASM="$top/build/wasm/arbiter.mjs" ARBITER="$arbiter"
export NODE_PATH="$here/node_modules${NODE_PATH:+:$NODE_PATH}"
cd "$here"
if [ "${1:-}" = --script ]; then
  shift
  exec node "$@"
fi
[ $# -gt 0 ] || set -- *.test.mjs
exec node --test --test-concurrency=1 "$@"
