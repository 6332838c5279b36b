#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# Builds the WebAssembly module: the C library's sources (the list set(ARB_SOURCES ...) in
# CMakeLists.txt, read from there so that it is kept in one place) and wasm/glue.c compiled by
# Emscripten's emcc into OUT/arbiter.wasm, with wasm/arbiter.mjs (the JavaScript API, its own
# loader: no Emscripten runtime) and wasm/arbiter.d.ts beside it.  Installs Debian's
# emscripten first when emcc is missing (scripts/deps.sh wasm).  Does nothing when OUT is newer
# than every source.
# usage: wasm/build.sh [OUT]   (OUT defaults to build/wasm)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/wasm}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
command -v emcc >/dev/null 2>&1 || sh "$top/scripts/deps.sh" wasm
# Debian's emcc runs its JavaScript tools with node and finds acorn in /usr/share/nodejs, which
# a node not from Debian does not search by itself.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# Debian's emscripten ships its system libraries built (/usr/share/emscripten/cache): nothing
# is compiled into the cache on a first run.  EM_CACHE may point elsewhere; it is used as is.

sources=$(sed -n '/^set(ARB_SOURCES/,/)/p' "$top/CMakeLists.txt" | sed 's/set(ARB_SOURCES//; s/)//')
[ -n "$sources" ] || { echo "wasm/build.sh: no set(ARB_SOURCES ...) in CMakeLists.txt" >&2; exit 1; }
paths=""
for s in $sources; do paths="$paths $top/$s"; done

mkdir -p "$out"
wasm="$out/arbiter.wasm"
if [ -f "$wasm" ] && [ -z "$(find "$top/src" "$top/include" "$top/wasm" "$top/CMakeLists.txt" -newer "$wasm" -type f | head -n 1)" ]; then
  cp "$top/wasm/arbiter.mjs" "$top/wasm/arbiter.d.ts" "$out/"
  exit 0
fi

# The exports: every WA_API function of glue.c, and malloc/free for nothing but the runtime.
exports=$(grep '^WA_API' "$top/wasm/glue.c" | grep -o 'wa_[a-z0-9_]*(' | tr -d '(' | sed 's/^/_/' | paste -sd, -)
# -O3: the module's speed is the point (perft, SAN); -flto lets the glue inline the library.
# 1 MB of stack: arb_winnability_of asks for up to about 520 KB.
echo "wasm/build.sh: emcc $(echo "$sources" | wc -w) library sources and glue.c -> $wasm" >&2
# shellcheck disable=SC2086
emcc -std=c11 -O3 -flto -DNDEBUG -fvisibility=hidden \
  -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla -Wcast-qual \
  -Wwrite-strings -Werror \
  -I"$top/include" -I"$top/src" $paths "$top/wasm/glue.c" \
  --no-entry -sSTANDALONE_WASM=1 -sEXPORTED_FUNCTIONS="$exports" -sALLOW_MEMORY_GROWTH=1 \
  -sTOTAL_STACK=1048576 -sINITIAL_MEMORY=4194304 -o "$out/arbiter.$$.wasm"
mv "$out/arbiter.$$.wasm" "$wasm"
cp "$top/wasm/arbiter.mjs" "$top/wasm/arbiter.d.ts" "$out/"
echo "wasm/build.sh: $(wc -c <"$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzipped" >&2
