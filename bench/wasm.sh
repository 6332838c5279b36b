#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# The WebAssembly module against chessops (bench/wasm.mjs): builds the module (wasm/build.sh)
# and installs chessops (tests/wasm's lockfile) first.
# usage: bench/wasm.sh [--runs N] [--games N]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
exec sh "$top/tests/wasm/run.sh" "$top" "" --script "$top/bench/wasm.mjs" "$@"
