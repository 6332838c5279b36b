#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# Installs the built library into a scratch prefix and builds tests/consumer/consumer.c against
# it through pkg-config (shared library, then static), and through the CMake package.
# usage: run.sh BUILD_DIR CONSUMER_SOURCE_DIR
set -eu
BUILD=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cmake --install "$BUILD" --prefix "$T/prefix" >/dev/null
PC=$(find "$T/prefix" -name arbiter.pc | head -n 1)
test -n "$PC"
export PKG_CONFIG_PATH="$(dirname "$PC")"
LIBDIR=$(pkg-config --variable=libdir arbiter)
CC=${CC:-cc}
$CC -std=c11 -Wall -Werror $(pkg-config --cflags arbiter) "$SRC/consumer.c" -o "$T/consumer" \
  $(pkg-config --libs arbiter)
LD_LIBRARY_PATH="$LIBDIR" "$T/consumer"
# the shared library carries a soname
objdump -p "$LIBDIR/libarbiter.so" 2>/dev/null | grep -q 'SONAME.*libarbiter.so.0' ||
  readelf -d "$LIBDIR/libarbiter.so" | grep -q 'libarbiter.so.0'
$CC -std=c11 -Wall -Werror $(pkg-config --cflags arbiter) "$SRC/consumer.c" -o "$T/consumer_static" \
  "$LIBDIR/libarbiter.a" -lpthread -lm
"$T/consumer_static"
# CMake package
mkdir -p "$T/cm"
cat >"$T/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(arbiter REQUIRED)
add_executable(consumer $SRC/consumer.c)
target_link_libraries(consumer PRIVATE arbiter::arbiter)
CM
cmake -S "$T/cm" -B "$T/cm/build" -DCMAKE_PREFIX_PATH="$T/prefix" >/dev/null
cmake --build "$T/cm/build" >/dev/null
LD_LIBRARY_PATH="$LIBDIR" "$T/cm/build/consumer"
echo "consumer: pkg-config (shared, static) and CMake package ok"
