#!/bin/sh
# Arbiter — MIT licence, see LICENSE (the page it builds is GPL-3.0-or-later: web/LICENSE).
# Builds the page arbiter serve serves: web/dist = the sources in web/src, chessground's file
# and stylesheets from npm (web/package-lock.json), the GPL text, and the rules module
# (wasm/build.sh: the C library compiled to WebAssembly, in wasm/).  No bundler: the page is
# plain ES modules.
# usage: scripts/web.sh [OUT]   (OUT defaults to web/dist)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dist=${1:-$top/web/dist}
sh "$top/scripts/npm.sh" "$top/web"
cg="$top/web/node_modules/@lichess-org/chessground"
rm -rf "$dist.tmp"
mkdir -p "$dist.tmp/vendor"
cp -R "$top/web/src/." "$dist.tmp/"
cp "$cg/dist/chessground.min.js" "$cg/assets/chessground.base.css" "$cg/assets/chessground.brown.css" \
  "$cg/assets/chessground.cburnett.css" "$dist.tmp/vendor/"
cp "$cg/LICENSE" "$dist.tmp/vendor/chessground.LICENSE.txt"
cp "$top/web/LICENSE" "$dist.tmp/LICENSE.txt"
sh "$top/wasm/build.sh" "$top/build/wasm"
mkdir -p "$dist.tmp/wasm"
cp "$top/build/wasm/arbiter.mjs" "$top/build/wasm/arbiter.wasm" "$dist.tmp/wasm/"
rm -rf "$dist"
mv "$dist.tmp" "$dist"
echo "web.sh: the page is in $dist" >&2
