#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# Every command answers --help, --version and bad usage the same way; its man page (made from
# its --help) lists every option its --help does; after `cmake --install` into a scratch prefix,
# `man arbiter-pgn` shows the page and the server finds the installed page by itself; bash
# completion completes commands, options and rule-set names (and the zsh one reads, when zsh is
# there).
# usage: help.sh ARBITER BUILD_DIR SOURCE_DIR
set -u
A=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
BUILD=$(cd "$2" && pwd)
top=$(cd "$3" && pwd)
. "$top/tests/cli/lib.sh"
need man man-db

cmds=$("$A" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' | grep -vx version)
check "arbiter --help lists the commands" test "$(echo "$cmds" | wc -w)" -ge 15
for c in $cmds; do
  "$A" "$c" --help </dev/null >"$T/h" 2>&1
  check "$c --help: exit 0" test $? -eq 0
  check "$c --help: usage: arbiter $c" sh -c "head -1 '$T/h' | grep -q '^usage: arbiter $c'"
  check "$c --version" sh -c "'$A' $c --version | grep -qx 'arbiter $c [0-9][0-9.]*'"
  "$A" "$c" --no-such-option </dev/null >/dev/null 2>"$T/e"
  check "$c: bad usage is exit 2" test $? -eq 2
  check "$c: bad usage says so on stderr" grep -q "arbiter" "$T/e"
  page="$BUILD/man/arbiter-$c.1"
  check "$c has a man page" test -s "$page"
  for o in $(grep -o -- '--[a-z][a-z0-9-]*' "$T/h" | sort -u); do
    esc=$(echo "$o" | sed 's/-/\\\\-/g')
    grep -q -- "$esc\|$o" "$page" || { echo "FAIL: $c: $o is in --help but not in its man page"; fail=$((fail + 1)); }
  done
done

# installed: man pages, the page, completion
cmake --install "$BUILD" --prefix "$T/prefix" >/dev/null 2>&1
check "installed: man arbiter-pgn" sh -c "MANPATH='$T/prefix/share/man' man -P cat arbiter-pgn 2>/dev/null | grep -q 'arbiter pgn check'"
check "installed: man arbiter" sh -c "MANPATH='$T/prefix/share/man' man -P cat arbiter 2>/dev/null | grep -q 'the complete laws of chess'"
check "installed: man 3 libarbiter" sh -c "MANPATH='$T/prefix/share/man' man -P cat 3 libarbiter 2>/dev/null | grep -q 'arb_status'"
check "installed: the systemd unit" grep -q "^ExecStart=/.*/bin/arbiter serve" "$T/prefix/lib/systemd/system/arbiter.service"
if [ -f "$top/web/dist/index.html" ]; then
  check "installed: the page" test -f "$T/prefix/share/arbiter/web/index.html"
  (cd "$T" && HOME="$T/home" "$T/prefix/bin/arbiter" serve --port 0 --port-file "$T/port" 2>"$T/serve.log") &
  pid=$!
  i=0
  while [ $i -lt 100 ] && [ ! -s "$T/port" ]; do sleep 0.1; i=$((i + 1)); done
  port=$(cat "$T/port" 2>/dev/null)
  curl -s "http://127.0.0.1:$port/" >"$T/page.html" 2>/dev/null
  kill $pid 2>/dev/null
  wait $pid 2>/dev/null
  check "installed: arbiter serve with no --static serves the page" grep -q '<title>' "$T/page.html"
  check "installed: the database goes to the state folder" test -f "$T/home/.local/state/arbiter/arbiter.db"
else
  echo "note: web/dist not built here: the installed page is not checked"
fi

# bash completion, with the built arbiter first on PATH
ln -sf "$A" "$T/arbiter"
comp() { # WORDS... -> the completions of the last word, one a line
  PATH="$T:$PATH" bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _arbiter; printf "%s\n" "${COMPREPLY[@]}"' \
    "$top/data/completion/arbiter.bash" "$@"
}
comp arbiter pu >"$T/c1"
check "bash: the commands complete" grep -qx puzzles "$T/c1"
comp arbiter serve --sta >"$T/c2"
check "bash: a command's options complete" sh -c "grep -qx -- --static '$T/c2' && grep -qx -- --state-dir '$T/c2'"
comp arbiter referee --rules fide- >"$T/c3"
check "bash: rule-set names complete" sh -c "grep -qx fide-rapid '$T/c3' && grep -qx fide-blitz '$T/c3'"
comp arbiter pgn c >"$T/c4"
check "bash: pgn's subcommands complete" sh -c "grep -qx check '$T/c4' && grep -qx convert '$T/c4'"
if command -v zsh >/dev/null 2>&1; then
  check "zsh: the completion reads" zsh -n "$top/data/completion/_arbiter"
fi
finish
