#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter puzzles`: the shipped starter set re-proves clean; lichess's own sample row (from its
# database page) is proven; a puzzle with a second solution, one whose move forces nothing and one
# that does not read are each found and make the exit status 1; mining real games gives puzzles
# that re-prove; bad usage is 2.
# usage: puzzles.sh ARBITER SOURCE_DIR
set -u
A=$1
top=$(cd "$2" && pwd)
. "$top/tests/cli/lib.sh"

"$A" puzzles check "$top/data/puzzles/starter.csv" >"$T/starter.out"
check "the starter set re-proves (exit 0)" test $? -eq 0
check "every starter puzzle is ok" grep -q "^8767 puzzles: 8767 ok, 0 with a second solution, 0 with none" "$T/starter.out"

cat >"$T/mixed.csv" <<'CSV'
PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags
00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,Italian_Game Italian_Game_Classical_Variation
second,k7/8/2K5/1Q6/8/8/8/8 b - - 0 1,a8a7 b5b6 a7a8 b6b7,1500,500,0,0,mate mateIn2,,
crush,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e4 e7e5,1500,500,0,0,crushing,,
broken,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e5 e7e5,1500,500,0,0,mate,,
CSV
"$A" puzzles check "$T/mixed.csv" >"$T/mixed.out"
check "findings: exit 1" test $? -eq 1
check "lichess's sample is not reported" sh -c "! grep -q '^00sHx' '$T/mixed.out'"
check "the second solution, with the other move" grep -q "^second: second_solution: c6c7 also forces mate within 2 moves" "$T/mixed.out"
check "an illegal move" grep -q "^broken: bad: e2e5 is not a legal move there" "$T/mixed.out"
check "the summary" grep -q "^4 puzzles: 1 ok, 1 with a second solution, 0 with none, 1 unchecked" "$T/mixed.out"
"$A" puzzles check --json "$T/mixed.csv" >"$T/mixed.json" 2>/dev/null
check "--json: one line a puzzle" test "$(wc -l <"$T/mixed.json")" -eq 4
check "--json: the verdicts" sh -c "grep -c '\"verdict\":\"ok\"' '$T/mixed.json' | grep -qx 1 && grep -q '\"other\":\"c6c7\"' '$T/mixed.json'"

PGN=$(ls "$top"/tests/data/pgn/real/lichess-*standard-first300.pgn | head -1)
"$A" puzzles mine "$PGN" -o "$T/mined.csv" 2>"$T/mine.err"
check "mine exits 0" test $? -eq 0
check "mine writes lichess's header" sh -c "head -1 '$T/mined.csv' | grep -qx 'PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags'"
check "mine finds mates" sh -c "grep -q 'mateIn2' '$T/mined.csv' && grep -q 'mateIn1' '$T/mined.csv'"
check "mine says the counts" grep -q "games, [0-9]* puzzles: mateIn1 [0-9]*" "$T/mine.err"
"$A" puzzles check "$T/mined.csv" >/dev/null
check "what was mined re-proves" test $? -eq 0
# --engine: an underpromotion no mate proves, judged by an engine (a mock with fixed opinions:
# d8=N+ forks king and queen for +4.5, d8=Q is 0.00), themed as lichess themes engine verdicts
printf '[Event "fork"]\n[FEN "8/3P1k2/8/2K5/4q3/8/6P1/8 b - - 0 1"]\n[SetUp "1"]\n\n1... Qe6 2. d8=N+ *\n' >"$T/fork.pgn"
"$A" puzzles mine "$T/fork.pgn" --engine "$top/tests/cli/mock-judge.sh" -o "$T/fork.csv" 2>"$T/fork.err"
check "--engine: the underpromotion, engine-judged" grep -q ",e4e6 d7d8n,.*advantage underPromotion oneMove endgame" "$T/fork.csv"
"$A" puzzles check "$T/fork.csv" >"$T/fork.out"
check "check leaves the engine's verdict unchecked" grep -q "1 unchecked" "$T/fork.out"
"$A" puzzles mine "$T/fork.pgn" -o "$T/fork0.csv" 2>/dev/null
check "without --engine no such puzzle" test "$(wc -l <"$T/fork0.csv")" -eq 1
"$A" puzzles mine "$T/fork.pgn" --engine /nonexistent/engine -o "$T/fork1.csv" 2>"$T/fork1.err"
check "an engine that does not start is said" grep -q "the engine /nonexistent/engine" "$T/fork1.err"
"$A" puzzles mine 2>/dev/null
check "mine without files: exit 2" test $? -eq 2
"$A" puzzles frobnicate 2>/dev/null
check "an unknown command: exit 2" test $? -eq 2
"$A" puzzles --help | grep -q "usage: arbiter puzzles mine"
check "--help" test $? -eq 0
finish
