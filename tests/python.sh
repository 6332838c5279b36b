#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# The Python package as a user installs it: pip builds it offline from a copy of python/ (the
# library's sources compiled in by cffi) into a scratch directory, then pytest runs its tests
# there — python-chess's API, PGN, errors, memory, the GIL; the differential test against
# python-chess when $PYTHON_CHESS names its source; the Dask stage on a local cluster of two
# workers against ARBITER's `arbiter pgn` (test_dask.py).
# usage: python.sh SOURCE_DIR [ARBITER]
set -u
top=$(cd "$1" && pwd)
if [ -n "${2:-}" ]; then
  ARBITER=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
  export ARBITER
fi
. "$top/tests/cli/lib.sh"
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3)
if ! "$PY" -c "import cffi, pytest, setuptools, pip, dask, distributed, zstandard" 2>/dev/null; then
  echo "FAIL: $PY lacks cffi, pytest, setuptools, pip, dask, distributed or zstandard: run 'sh scripts/deps.sh python'"
  exit 1
fi
cp -r "$top/python" "$T/python"
rm -rf "$T/python/build" "$T/python"/*.egg-info "$T/python/arbiter"/_arbiter*
check "pip builds and installs the package offline" sh -c \
  "ARBITER_SOURCE='$top' '$PY' -m pip install -q --root-user-action=ignore --no-build-isolation --no-deps --no-index \
     --target '$T/site' '$T/python' >'$T/pip.log' 2>&1 || { cat '$T/pip.log'; exit 1; }"
check "import arbiter from the installed package" sh -c \
  "cd '$T' && PYTHONPATH='$T/site' '$PY' -c 'import arbiter; assert arbiter.__file__.startswith(\"$T/site\"); print(arbiter.Board().perft(3))' | grep -qx 8902"
check "pytest: the package's tests" sh -c \
  "cd '$T' && PYTHONPATH='$T/site' '$PY' -m pytest -q -p no:cacheprovider '$top/python/tests'"
finish
