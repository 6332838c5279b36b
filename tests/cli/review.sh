#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter train review`: a PGN with every kind of rule mistake built in (tests/data/review/
# mistakes.pgn, each game's Event says what the FIDE Laws make of it) gives exactly those
# findings, at the ply and for the player the Laws say, and none for the games without a
# mistake; a game that does not read is reported and the others still reviewed; bad usage is 2.
# usage: review.sh ARBITER SOURCE_DIR
set -u
A=$1
top=$(cd "$2" && pwd)
. "$top/tests/cli/lib.sh"
need python3 python3
PGN=$top/tests/data/review/mistakes.pgn

"$A" train review --json "$PGN" >"$T/r.jsonl"
check "review: exit 0" test $? -eq 0
python3 - "$T/r.jsonl" >"$T/got" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    g = json.loads(l)
    fs = ' '.join(f"{f['kind']}@{f['ply']}:{f['side']}:{f.get('san', '')}" for f in g['findings'])
    print(f"{g['game']} {fs or 'none'}")
PY
# written from the Laws for each game of the file (game, kind@ply:side:move)
cat >"$T/want" <<'W'
1 claim_threefold@8:white:
2 claim_fifty@0:black:Kd4
3 stalemate_promotion@0:white:f8=R
4 stalemate_given@0:white:Qb8#
5 missed_rescue@1:black:Kxa4
6 played_on@1:black:
7 result_not_lawful@3:black:
8 result_not_lawful@3:black:
9 none
10 none
11 none
W
check "every mistake found where the Laws put it, none invented" diff "$T/want" "$T/got"
check "the article of each" sh -c "grep -q '\"article\":\"FIDE 9.2.1\"' '$T/r.jsonl' && grep -q '\"article\":\"FIDE 6.9\"' '$T/r.jsonl' && grep -q '\"article\":\"FIDE 5.1.2\"' '$T/r.jsonl'"

"$A" train review --ascii "$PGN" >"$T/r.txt"
check "text: the board of each finding" grep -q "^  a b c d e f g h" "$T/r.txt"
check "text: the words" grep -q "White stalemated Black with 1.f8=Q: the game was drawn. Promoting to another piece, f8=R, would not have stalemated" "$T/r.txt"
check "text: the summary" grep -q "^11 games, 11 reviewed: 8 rule mistakes, 4.0 points the laws would have given" "$T/r.txt"

printf '[Event "broken"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[Event "fine"]\n\n1. e4 e5 *\n' >"$T/bad.pgn"
"$A" train review "$T/bad.pgn" >"$T/bad.out"
check "a game that does not replay: said, and the next reviewed" sh -c "grep -q '^Game 1: .*not reviewed (line 3' '$T/bad.out' && grep -q '^Game 2: .*no rule mistakes' '$T/bad.out'"
"$A" train review - <"$PGN" >/dev/null
check "stdin" test $? -eq 0
"$A" train review >/dev/null 2>&1
check "no file: exit 2" test $? -eq 2
"$A" train review "$T/none.pgn" >/dev/null 2>&1
check "a file that is not there: exit 1" test $? -eq 1
finish
