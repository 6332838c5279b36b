#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# make python: builds the Python package offline (pip, cffi, the library's sources compiled in)
# and installs it where Debian's python3 imports it: /usr/local/lib/python3.X/dist-packages as
# root, the user's site-packages otherwise, or $PYTHON_TARGET.  Then checks `import arbiter`.
# usage: scripts/python-install.sh [SOURCE_DIR]   ($PYTHON: the interpreter, default
# /usr/bin/python3)
set -eu
top=$(cd "${1:-.}" && pwd)
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3)
if [ -n "${PYTHON_TARGET:-}" ]; then
  target=$PYTHON_TARGET
elif [ "$(id -u)" = 0 ]; then
  # Debian's scheme for locally installed packages (pip --prefix /usr/local would go astray)
  # (posix_local is Debian's: its paths add /local to the base)
  target=$("$PY" -c 'import sysconfig as s
local = "posix_local" in s.get_scheme_names()
base = "/usr" if local else "/usr/local"
print(s.get_path("purelib", "posix_local" if local else "posix_prefix", {"base": base, "platbase": base}))')
else
  target=$("$PY" -c 'import site; print(site.getusersitepackages())')
fi
mkdir -p "$target"
echo "make python: building and installing the package into $target"
"$PY" -m pip install -q --root-user-action=ignore --no-build-isolation --no-deps --no-index --upgrade --target "$target" \
  "$top/python"
# pip --target leaves its own copy of a previous version's files: nothing else to clean
cd /tmp
if ! "$PY" -c 'import arbiter, sys; assert arbiter.__file__.startswith(sys.argv[1]), arbiter.__file__' "$target"; then
  echo "make python: installed into $target, but $PY does not import it from there; add it to PYTHONPATH" >&2
  exit 1
fi
"$PY" -c 'import arbiter; print("make python: %s imports arbiter %s from %s" % (__import__("sys").executable, arbiter.__version__, arbiter.__file__))'
