#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter referee --otb` from the command line: games with mistakes under each rule set, their
# PGN as played read back by `arbiter pgn check` with warnings only (no error), the legal-only
# export, and bad input answered without stopping the stream.
# usage: otb.sh ARBITER
set -u
A=$1
. "$(dirname "$0")/lib.sh"

# FIDE standard: a touch-move breach claimed, a completed illegal move (+2 min), and White's
# second illegal move against a bare king: a draw (7.5.5).
cat >"$T/fide" <<'X'
{"type":"start","t":0,"rules":"fide","fen":"7k/8/8/8/8/8/8/R3K3 w Q - 0 1","control":"5400"}
{"t":1000,"type":"touch","by":"white","square":"a1"}
{"t":1500,"type":"move","by":"white","uci":"e1e2"}
{"t":1800,"type":"press","by":"white"}
{"t":2500,"type":"claim","by":"black","kind":"touch_move"}
{"t":3000,"type":"move","by":"white","uci":"a1a7"}
{"t":3300,"type":"press","by":"white"}
{"t":4000,"type":"move","by":"black","uci":"h8g7"}
{"t":4300,"type":"press","by":"black"}
{"t":5000,"type":"move","by":"black","uci":"h8g8"}
{"t":5300,"type":"press","by":"black"}
{"t":6000,"type":"move","by":"white","uci":"a7b8"}
{"t":6300,"type":"press","by":"white"}
{"t":7000,"type":"move","by":"white","uci":"a7b6"}
{"t":7300,"type":"press","by":"white"}
X
"$A" referee --otb --pgn "$T/fide.pgn" <"$T/fide" >"$T/fide.out"
check "fide: exit 0" test $? -eq 0
check "fide: one answer per event" test "$(wc -l <"$T/fide.out")" -eq 15
check "fide: the breach is reported" sh -c "sed -n 3p '$T/fide.out' | grep -q '\"code\":\"touch_move\"'"
check "fide: the claim restores" sh -c "sed -n 5p '$T/fide.out' | grep -q '\"restore_fen\":\"7k/8/8/8/8/8/8/R3K3 w Q - 0 1\".*\"claim_valid\":true'"
check "fide: +2 minutes to White" sh -c "sed -n 9p '$T/fide.out' | grep -q '\"time_added\":{\"white\":120}'"
check "fide: second illegal move, a draw" sh -c "tail -1 '$T/fide.out' | grep -q '\"result\":\"1/2-1/2\",\"termination\":\"second_illegal_move\"'"
check "fide: PGN written" grep -q '^\[Result "1/2-1/2"\]' "$T/fide.pgn"
"$A" pgn check "$T/fide.pgn" >"$T/fide.check" 2>&1
check "fide: PGN reads back without error" test $? -eq 0

# FIDE rapid, A.5: an illegal move nobody claimed before the reply stands; play goes on.
cat >"$T/rapid" <<'X'
{"type":"start","t":0,"rules":"fide-rapid","supervision":"A.5","fen":"4r1k1/8/8/8/8/8/8/R3K3 w Q - 0 1","control":"900+10"}
{"t":1000,"type":"lift","square":"a1"}
{"t":1300,"type":"place","square":"a4","piece":"R"}
{"t":1600,"type":"press","by":"white"}
{"t":3000,"type":"lift","square":"g8"}
{"t":3300,"type":"place","square":"h8","piece":"k"}
{"t":3500,"type":"press","by":"black"}
{"t":4000,"type":"claim","by":"black","kind":"illegal_move"}
{"t":5000,"type":"move","by":"white","uci":"e1d2"}
{"t":5300,"type":"press","by":"white"}
X
"$A" referee --otb --pgn "$T/rapid.pgn" <"$T/rapid" >"$T/rapid.out"
check "rapid: the illegal move stands" sh -c "sed -n 7p '$T/rapid.out' | grep -q '\"stands\":true'"
check "rapid: the late claim is not valid" sh -c "sed -n 8p '$T/rapid.out' | grep -q '\"claim_valid\":false'"
check "rapid: the record keeps it" sh -c "tail -1 '$T/rapid.out' | grep -q '{\"uci\":\"a1a4\",\"san\":\"Ra1-a4\",\"legal\":false,\"stood\":true'"
check "rapid: PGN has the [%illegal] comment" grep -q '%illegal a1a4 4r1k1/8/8/8/R7/8/8/4K3 b - - 1 1' "$T/rapid.pgn"
"$A" pgn check "$T/rapid.pgn" >"$T/rapid.check" 2>&1
check "rapid: PGN reads back without error" test $? -eq 0
check "rapid: ... with the stood move as a warning" grep -q "warning: 1. a1a4: an illegal move that stood" "$T/rapid.check"
"$A" referee --otb --pgn "$T/legal.pgn" --legal-only <"$T/rapid" >/dev/null
check "rapid: --legal-only stops at the stood move" grep -q 'stood here and the game went on' "$T/legal.pgn"
"$A" pgn check "$T/legal.pgn" >/dev/null 2>&1
check "rapid: the legal game reads back" test $? -eq 0

# US Chess blitz: a completed illegal move claimed by a player without mating material draws.
printf '%s\n' '{"type":"start","t":0,"rules":"uscf-blitz","fen":"4k1n1/8/8/8/8/8/8/R3K3 w Q - 0 1"}' \
  '{"t":1000,"type":"move","by":"white","uci":"a1b2"}' '{"t":1200,"type":"press","by":"white"}' \
  '{"t":1800,"type":"claim","by":"black","kind":"illegal_move"}' |
  "$A" referee --otb >"$T/us.out"
check "uscf-blitz: a draw" sh -c "tail -1 '$T/us.out' | grep -q '\"termination\":\"illegal_move_claimant_lacks_mating_material\"'"

# bad input: answered, the stream goes on
printf '%s\n' 'not json' '{"type":"start","t":0}' '{"type":"teleport","t":5}' \
  '{"type":"touch","t":10,"by":"white","square":"z9"}' '{"type":"board","t":20,"placement":"8/8"}' \
  '{"type":"move","t":30,"by":"white","uci":"e2e4"}' '{"type":"move","t":25,"by":"black","uci":"e7e5"}' |
  "$A" referee --otb >"$T/bad.out"
check "bad input: exit 0 and 7 answers" test "$(wc -l <"$T/bad.out")" -eq 7
check "bad input: json" sh -c "sed -n 1p '$T/bad.out' | grep -q '\"code\":\"json\"'"
check "bad input: unknown event" sh -c "sed -n 3p '$T/bad.out' | grep -q 'unknown_event'"
check "bad input: bad square" sh -c "sed -n 4p '$T/bad.out' | grep -q 'bad_event'"
check "bad input: bad placement names the column" sh -c "sed -n 5p '$T/bad.out' | grep -q 'column'"
check "bad input: a move after it" sh -c "sed -n 6p '$T/bad.out' | grep -q '\"ok\":true.*\"made\":\"e2e4\"'"
check "bad input: time backwards" sh -c "sed -n 7p '$T/bad.out' | grep -q 'time_backwards'"
finish
