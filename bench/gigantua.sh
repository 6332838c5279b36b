#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
#
# bench/gigantua.sh DIR [OUT]: builds Gigantua (github.com/Gigantua/Gigantua), the perft peer of
# issue 31, outside the tree for bench/perft.  DIR is the Gigantua/ folder of a checkout (the
# one holding Gigantua.cpp); OUT the binary (default /tmp/arbiter-gigantua/giga).  Built with the
# flags of its own Compile_linux script: g++ -std=c++2a -march=native -O3 -fomit-frame-pointer
# -foptimize-sibling-calls (it needs BMI2's pext, so the machine must have it).  When DIR has no
# Movemap.hpp (our code store lacks that one file), bench/gigantua-movemap.hpp stands in for
# it, and the script says so: the figures are then Gigantua's move generator over our PEXT
# tables.  Then:  GIGANTUA=OUT build/release/bench/perft
# GIGANTUA_ARCH (default -march=native) replaces the architecture flag: for counting its
# instructions with callgrind, which cannot run AVX-512 code, build it with
# GIGANTUA_ARCH="-mbmi -mbmi2 -mpopcnt -mlzcnt -mavx2" (as a portable Arbiter build with the same
# -C flags; docs/testing.md) — about 8 minutes on this machine.
# Exit status: 0 built, 1 the build failed, 2 bad usage.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/Gigantua.cpp" ]; then
  echo "usage: bench/gigantua.sh DIR [OUT]   (DIR: a checkout's Gigantua/ folder, with Gigantua.cpp)" >&2
  exit 2
fi
src=$1
out=${2:-/tmp/arbiter-gigantua/giga}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src"/*.hpp "$src"/Gigantua.cpp "$work"/
if [ ! -f "$work/Movemap.hpp" ]; then
  cp "$here/gigantua-movemap.hpp" "$work/Movemap.hpp"
  echo "gigantua.sh: $src has no Movemap.hpp: bench/gigantua-movemap.hpp stands in for it"
fi
mkdir -p "$(dirname "$out")"
# shellcheck disable=SC2086 # the flags are words
if ! g++ "$work/Gigantua.cpp" -std=c++2a ${GIGANTUA_ARCH:--march=native} -O3 -fomit-frame-pointer \
  -foptimize-sibling-calls -o "$out"; then
  echo "gigantua.sh: the build failed" >&2
  exit 1
fi
echo "gigantua.sh: built $out; now: GIGANTUA=$out build/release/bench/perft"
