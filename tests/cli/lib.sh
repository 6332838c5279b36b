# Arbiter — MIT licence, see LICENSE.
# Shared by the CLI test scripts (sourced): a scratch directory $T removed on exit, and
# check DESCRIPTION COMMAND... counting passes and failures; finish prints the tally and sets
# the exit status.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
pass=0
check() { # description, then a command that must succeed
  d=$1
  shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $d"; fail=$((fail + 1)); fi
}
finish() {
  echo "$pass passed, $fail failed"
  test "$fail" -eq 0
}
# need PROGRAM PACKAGE: stops the test (failed, exit 1) naming the program and the Debian package
# when PROGRAM is not installed, instead of failing later with "No such file or directory".
# `sh scripts/deps.sh test` installs every package the tests need.
need() {
  if ! command -v "$1" >/dev/null 2>&1 && ! [ -x "$1" ]; then
    echo "FAIL: this test needs $1 (Debian package $2), which is not installed: run 'sh scripts/deps.sh test'"
    exit 1
  fi
}
# For the tests of terminal programs in tmux (the session's name in $S): the screen and its
# history; wait_for TEXT waits until the screen shows it (up to 20 s; the screen is printed when
# it does not); key TEXT types it and Enter.
screen() { tmux capture-pane -p -t "$S" -S -300; }
wait_for() {
  i=0
  while [ $i -lt 200 ]; do
    screen | grep -q -- "$1" && return 0
    sleep 0.1
    i=$((i + 1))
  done
  echo "--- screen:"; screen; return 1
}
key() { tmux send-keys -t "$S" "$1" Enter; }
