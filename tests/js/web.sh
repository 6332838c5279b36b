#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# The browser tests: builds the page into OUT/web (scripts/web.sh: npm ci of web/ from its
# lockfile), then runs TEST (tests/js/web.test.mjs by default) with Debian's chromium against
# ARBITER, leaving each test's screenshots in OUT/web-shots/NAME (web, train).
# usage: tests/js/web.sh ARBITER OUT [TEST.test.mjs]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
arbiter=$1
out=$2
case $arbiter in /*) ;; *) arbiter=$(pwd)/$arbiter ;; esac
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
[ -x /usr/bin/chromium ] || sh "$here/../../scripts/deps.sh" test
sh "$here/../../scripts/web.sh" "$out/web"
test=${3:-web.test.mjs}
shots="$out/web-shots/${test%.test.mjs}"
rm -rf "$shots"
export ARBITER_WEB="$out/web" ARBITER_SHOTS="$shots"
exec sh "$here/run.sh" "$arbiter" test "$test"
