#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# The browser tests: builds the page into OUT/web (scripts/web.sh: npm ci of web/ from its
# lockfile), then runs tests/js/web.test.mjs with Debian's chromium against ARBITER, leaving
# each test's screenshots in OUT/web-shots.
# usage: tests/js/web.sh ARBITER OUT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
arbiter=$1
out=$2
case $arbiter in /*) ;; *) arbiter=$(pwd)/$arbiter ;; esac
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
[ -x /usr/bin/chromium ] || sh "$here/../../scripts/deps.sh" test
sh "$here/../../scripts/web.sh" "$out/web"
rm -rf "$out/web-shots"
export ARBITER_WEB="$out/web" ARBITER_SHOTS="$out/web-shots"
exec sh "$here/run.sh" "$arbiter" test web.test.mjs
