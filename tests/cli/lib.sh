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
# Each test has its own tmux server (its socket under $T): tests run in parallel, and on one
# shared server a test's last kill-session stops the server while another's new-session is
# connecting to it ("server exited unexpectedly").
export TMUX_TMPDIR="$T"
unset TMUX
# For the tests of terminal programs in tmux (the session's name in $S): the screen and its
# history; wait_for TEXT waits until the screen shows it (up to 20 s; the screen is printed when
# it does not); key TEXT types it and Enter.
# tmux_new ARGS... is tmux new-session ARGS..., tried up to three times (a server that fails to
# start is the machine's, not the program's; it is reported).
screen() { tmux capture-pane -p -t "$S" -S -300; }
tmux_new() {
  for try in 1 2 3; do
    tmux new-session "$@" && return 0
    echo "tmux new-session failed (try $try of 3)"
    sleep 1
  done
  return 1
}
wait_for() {
  i=0
  while [ $i -lt 200 ]; do
    screen | grep -q -- "$1" && return 0
    tmux has-session -t "$S" 2>/dev/null || { echo "--- the tmux session $S is gone"; return 1; }
    sleep 0.1
    i=$((i + 1))
  done
  echo "--- screen:"; screen; return 1
}
key() { tmux send-keys -t "$S" "$1" Enter; }
# tmux_end SESSION: ends a session and every process still in it.  kill-session alone hangs up
# on them (SIGHUP), and a program built with AddressSanitizer that such a signal reaches while
# its leak check at exit has stopped the world spins there for ever (seen: `arbiter play` of the
# ASan build at 100% of a core for hours after `make test`, slowing every measurement after it).
# So each pane's process group is killed first: tmux makes each pane's shell a session and group
# of its own, and the program the test runs there is in it.  (Written `kill -KILL -PGID`: dash,
# Debian's sh, takes no `--` there — `kill -KILL -- -PGID` fails with "Illegal number" and kills
# nothing, which is how the spinning `arbiter play` came back after stop 44's version.)
tmux_end() {
  for pane in $(tmux list-panes -s -t "$1" -F '#{pane_pid}' 2>/dev/null); do
    kill -KILL "-$pane" 2>/dev/null
  done
  tmux kill-session -t "$1" 2>/dev/null
  return 0
}
