#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# Runs one of the Node tests in tests/js against an arbiter binary, installing the npm packages
# of tests/js first when they are missing (npm ci from the lockfile; the npm registry only).
# usage: tests/js/run.sh ARBITER test FILE.test.mjs | script FILE.mjs [ARGS...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
arbiter=$1
mode=$2
file=$3
shift 3
case $arbiter in /*) ;; *) arbiter=$(pwd)/$arbiter ;; esac
sh "$here/../../scripts/npm.sh" "$here"
export ARBITER="$arbiter"
cd "$here"
if [ "$mode" = test ]; then
  exec node --test --test-concurrency=1 "$file" "$@"
else
  exec node "$file" "$@"
fi
