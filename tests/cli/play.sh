#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter play` in a pseudo-terminal (tmux) as a person uses it: start against a real engine
# (toga2), move, see the engine's reply, an illegal move explained, a wrong claim penalised,
# resign, find the PGN with its clocks.
# usage: play.sh ARBITER
set -u
A=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need tmux tmux
need /usr/games/toga2 toga2
need /usr/games/stockfish stockfish
S="arbiter-play-test-$$"
export TERM="${TERM:-xterm}"
tmux new-session -d -s "$S" -x 100 -y 50 \
  "$A play --engine /usr/games/toga2 --option OwnBook=false --depth 3 --tc 5+3 --rules fide --pgn $T/game.pgn; sleep 30"
trap 'tmux kill-session -t "$S" 2>/dev/null; rm -rf "$T"' EXIT
check "the game starts" wait_for "You (White) >"
check "the board is drawn with coordinates" sh -c "tmux capture-pane -p -t '$S' | grep -q 'a  b  c  d  e  f  g  h'"
key e4
check "the engine replies" wait_for "Toga II 3.0 plays"
check "the move list" wait_for "Moves: 1. e4"
check "the clocks" wait_for "Clocks: You"
key Ke3
check "an illegal move is explained" wait_for "Ke3: "
key claim
check "a wrong claim costs two minutes" wait_for "The claim is not correct: Black gets 120 seconds"
key resign
check "the result in words" wait_for "0-1  White resigned: Black wins"
check "the PGN is saved" wait_for "Game saved in $T/game.pgn"
check "the PGN has the clocks" grep -q '%clk' "$T/game.pgn"
"$A" pgn check "$T/game.pgn" >/dev/null 2>&1
check "the PGN reads back" test $? -eq 0
check "the PGN has the date" grep -q "^\[Date \"$(date +%Y.%m.%d)\"\]" "$T/game.pgn"

# --level (lichess's table): Stockfish gets its Skill Level, time and depth, and replies
(printf 'e4\n'; sleep 3; printf 'resign\n') | "$A" play --engine /usr/games/stockfish --level 2 \
  --pgn "$T/level.pgn" --ascii --no-color >"$T/level.out" 2>&1
check "--level 2: the engine replies, the game is saved" sh -c \
  "grep -q 'Stockfish.* plays' '$T/level.out' && grep -q '^1\\. e4 ' '$T/level.pgn'"
check "--level 9 is refused" sh -c "! '$A' play --engine /usr/games/stockfish --level 9 </dev/null 2>/dev/null"
finish
