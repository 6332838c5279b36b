#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# Installs the Debian packages the build and tests need, when they are missing.
# usage: scripts/deps.sh [--list] [build|run|test|python|wasm|node|bench|fuzz|fresh|deb]...   (default: build)
#   --list   print the packages of those sets, one per line, and install nothing
# As root it runs apt-get directly; otherwise through sudo when available.
# Every program a test runs comes from the `test` set (tests/cli/deps.sh checks that the
# programs the tests name are shipped by a package listed here).
set -eu
list=0
if [ "${1:-}" = --list ]; then list=1; shift; fi
want="cmake make gcc pkg-config libjansson-dev libuv1-dev libsqlite3-dev libzstd-dev zlib1g-dev help2man"
for what in "${@:-build}"; do
  case "$what" in
  build) ;;
  # the engines are the ones tests/cli/{match,play}.sh play against
  test) want="$want libcriterion-dev nodejs npm clang-format binutils chromium fonts-dejavu-core glaurung toga2 stockfish tmux procps polyglot libxml2-utils python3 python3-minimal man-db zsh curl valgrind zstd gzip python3-dev python3-cffi python3-setuptools python3-pip python3-pytest python3-dask python3-distributed python3-zstandard emscripten clang" ;;
  # make python: the package's build (cffi, setuptools, Python's headers) and its tests; its
  # Dask stage (arbiter.dask: dask, distributed; .pgn.zst through zstandard)
  python) want="$want python3 python3-dev python3-cffi python3-setuptools python3-pip python3-pytest python3-dask python3-distributed python3-zstandard" ;;
  # make wasm: the library compiled to WebAssembly by Debian's emcc (wasm/build.sh), tested in node
  wasm) want="$want emscripten nodejs npm" ;;
  node) want="$want nodejs npm" ;;
  # make run: the page's npm packages, and the computer opponent the lobby offers
  run) want="$want nodejs npm stockfish" ;;
  bench) want="$want stockfish pgn-extract" ;;
  fuzz) want="$want clang libclang-rt-dev" ;;
  fresh) want="$want debootstrap curl git" ;;
  deb) want="$want build-essential debhelper dpkg-dev fakeroot lintian" ;;
  *) echo "deps.sh: unknown set '$what'" >&2; exit 2 ;;
  esac
done
if [ $list = 1 ]; then
  echo $want | tr ' ' '\n' | sort -u
  exit 0
fi
missing=""
for p in $want; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# node and npm may come from elsewhere than Debian's packages
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  missing=$(echo "$missing" | tr ' ' '\n' | grep -v -x -e nodejs -e npm | tr '\n' ' ')
fi
missing=$(echo $missing)
[ -z "$missing" ] && exit 0
echo "deps.sh: installing:$missing"
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "deps.sh: missing packages ($missing) and not root; install them and re-run" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
