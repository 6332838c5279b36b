#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# Installs a folder's npm packages from its lockfile when they are missing or older than the
# lockfile (npm ci: exactly the locked versions, from the npm registry).  Installs Node.js and
# npm from Debian first when they are missing (as root, or through sudo).
# usage: scripts/npm.sh DIR...
set -eu
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  sh "$(dirname "$0")/deps.sh" node
fi
for dir in "$@"; do
  stamp="$dir/node_modules/.arbiter-installed"
  if [ ! -f "$stamp" ] || [ "$dir/package-lock.json" -nt "$stamp" ]; then
    echo "npm.sh: npm ci in $dir" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
    touch "$stamp"
  fi
done
