#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter pgn`'s progress line, in a pseudo-terminal (tmux) as a person sees it: while a large
# file is read, stderr shows the megabytes read of the file's size, the games, games per second
# and the time left; the line is gone when the summary comes.  From stdin (no size): megabytes,
# games and games per second only.  Never in a pipe or a file: stderr then holds nothing.
# usage: pgn_progress.sh ARBITER DATA_DIR
set -u
A=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
P=$2/pgn
. "$(dirname "$0")/lib.sh"
need tmux tmux
S="arbiter-pgn-progress-$$"
export TERM="${TERM:-xterm}"
trap 'tmux_end "$S"; rm -rf "$T"' EXIT

# about 60 MB of real games: long enough to be watched
for i in 1 2 3 4 5 6 7 8 9 10; do
  for k in 1 2 3 4 5 6 7 8 9 10; do cat "$P"/real/*.pgn; done
done >"$T/big.pgn"
check "the input is over 40 MB" test "$(wc -c <"$T/big.pgn")" -gt 40000000

tmux_new -d -s "$S" -x 200 -y 20 "$A pgn check -q $T/big.pgn >/dev/null; echo DONE; sleep 30"
check "progress: megabytes of the file's size" wait_for "arbiter pgn: [0-9.]* MB of [0-9.]* MB ([0-9]*%)"
check "progress: games and games per second" wait_for ", [0-9]* games, [0-9]* games/s"
check "progress: the time left" wait_for ", [0-9]*:[0-9][0-9] left"
check "the run ends" wait_for "DONE"
check "the progress line is gone at the end" sh -c "! tmux capture-pane -p -t '$S' | grep -q 'games/s'"
tmux_end "$S"

tmux_new -d -s "$S" -x 200 -y 20 "cat $T/big.pgn | $A pgn check -q - >/dev/null; echo DONE; sleep 30"
check "stdin: megabytes and games, no size" wait_for "arbiter pgn: [0-9.]* MB, [0-9]* games, [0-9]* games/s"
check "stdin: the run ends" wait_for "DONE"
tmux_end "$S"

cat "$P"/real/*.pgn >"$T/small.pgn"
"$A" pgn check -q -j 2 "$T/small.pgn" >/dev/null 2>"$T/err"
check "not a terminal: nothing on stderr" test ! -s "$T/err"
"$A" pgn convert --to uci "$T/small.pgn" 2>"$T/err" | head -c 1000 >/dev/null
check "a pipe: no progress" sh -c "! grep -q 'games/s' '$T/err'"
finish
