#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter match`: engines that misbehave in each way of ENGINES.md 6.5 (mock-engine.sh) and the
# result the laws give, a short match of two real Debian engines (toga2, glaurung) whose PGN
# `arbiter pgn check` reads with no error, and --resume after kill -9 ending with the same
# numbers and the same PGN as an uninterrupted run.
# usage: match.sh ARBITER
set -u
A=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
MOCK="$here/mock-engine.sh"
TOGA=/usr/games/toga2
GLAU=/usr/games/glaurung
need $TOGA toga2
need $GLAU glaurung

# mock (White) against toga (Black): one game each
for m in illegal none a1a1 malformed crash hang garbage crlf castle960 noping exitnewgame; do
  tc="depth=2"
  [ "$m" = hang ] && tc="tc=1s+0"
  "$A" match -engine cmd=sh args="$MOCK $m" name=mock -engine cmd=$TOGA name=toga option.OwnBook=false \
    -each $tc -rounds 1 -pgnout file="$T/$m.pgn" >"$T/$m.out" 2>&1
  eval "$m=\$(grep ArbiterReason '$T/$m.pgn')"
done
check "illegal bestmove: 0-1, named" sh -c "grep -q '0-1 {White made an illegal move: Black wins (bestmove e2e5 is not legal' '$T/illegal.out' && grep -q 'ArbiterTermination \"illegal_move\"' '$T/illegal.pgn'"
check "bestmove (none): 0-1" sh -c "grep -q 'bestmove (none) in a position with legal moves' '$T/none.out'"
check "bestmove a1a1: 0-1" sh -c "grep -q 'bestmove a1a1 in a position with legal moves' '$T/a1a1.out'"
check "malformed bestmove: 0-1" sh -c "grep -q 'bestmove banana is not a move in UCI notation' '$T/malformed.out'"
check "crash: abandoned, 0-1" sh -c "grep -q '0-1 {White.s engine crashed: Black wins' '$T/crash.out' && grep -q 'Termination \"abandoned\"' '$T/crash.pgn' && grep -q 'ArbiterTermination \"crash\"' '$T/crash.pgn'"
check "hang: the flag falls, 0-1, the engine is killed" sh -c "grep -q '0-1 {White ran out of time: Black wins (FIDE 6.9)' '$T/hang.out' && grep -q 'Termination \"time forfeit\"' '$T/hang.pgn'"
check "garbage flood: the move after it counts" sh -c "grep -q '1. e4' '$T/garbage.pgn'"
check "CRLF lines: read" sh -c "grep -q '1. e4' '$T/crlf.pgn'"
check "castling in 960 notation: named" sh -c "grep -q 'bestmove e1h1 is not legal' '$T/castle960.out'"
check "no readyok to the ping before a search: stalled, 0-1" sh -c "grep -q '0-1 {White.s engine stopped answering: Black wins (no readyok within 10 s' '$T/noping.out' && grep -q 'ArbiterTermination \"stall\"' '$T/noping.pgn' && grep -q 'Termination \"abandoned\"' '$T/noping.pgn'"
check "an engine that exits on ucinewgame: crashed, 0-1" sh -c "grep -q '0-1 {White.s engine crashed' '$T/exitnewgame.out'"
check "no engine process is left" sh -c "! pgrep -f 'mock-engin[e].sh' >/dev/null"

# a flag against a bare king is a draw (FIDE 6.9): the mock hangs in a K+R vs K position
printf '%s\n' '7k/8/8/8/8/8/8/R3K3 w - - 0 1' >"$T/bare.epd"
"$A" match -engine cmd=sh args="$MOCK hang" name=mock -engine cmd=$TOGA name=toga option.OwnBook=false \
  -each tc=1s+0 -openings file="$T/bare.epd" format=epd -rounds 1 -pgnout file="$T/bare.pgn" >"$T/bare.out" 2>&1
check "a flag with the opponent unable to mate: a draw" sh -c "grep -q '1/2-1/2 {Draw: White ran out of time, but Black cannot checkmate by any sequence of legal moves' '$T/bare.out'"

# a blocked-pawn dead position ends the game by itself (5.2.2)
printf '%s\n' '8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1' >"$T/dead.epd"
"$A" match -engine cmd=$TOGA name=toga option.OwnBook=false -engine cmd=$GLAU name=glaurung \
  option.Threads=1 option.Ponder=false option.OwnBook=false -each depth=3 \
  -openings file="$T/dead.epd" format=epd -rounds 1 -pgnout file="$T/dead.pgn" >"$T/dead.out" 2>&1
check "a dead position: a draw by the rules" sh -c "grep -q 'ArbiterTermination \"dead_position\"' '$T/dead.pgn'"

# a short real match, then the same one killed and resumed
cat >"$T/open.epd" <<'X'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
rnbqkbnr/pppppppp/8/8/6P1/8/PPPPPP1P/RNBQKBNR b KQkq - 0 1
X
run() {
  "$A" match -engine cmd=$TOGA name=toga option.OwnBook=false -engine cmd=$GLAU name=glaurung \
    option.Threads=1 option.Ponder=false option.OwnBook=false -each depth=4 restart=on -games 2 -rounds 5 \
    -openings file="$T/open.epd" format=epd -concurrency 2 -maxmoves 150 "$@"
}
run -pgnout file="$T/full.pgn" >"$T/full.out" 2>&1
check "the match runs to the end" grep -q "Finished match: 10 of 10 games" "$T/full.out"
"$A" pgn check "$T/full.pgn" >"$T/full.check" 2>&1
check "its PGN reads back without error" test $? -eq 0
run -pgnout file="$T/part.pgn" >"$T/part1.out" 2>&1 &
pid=$!
i=0
while [ $i -lt 200 ] && [ "$(cat "$T/part.pgn.journal" 2>/dev/null | wc -l)" -lt 3 ]; do sleep 0.05; i=$((i + 1)); done
pkill -9 -P $pid 2>/dev/null # its engines (only this run's: another run's stay alive)
kill -9 $pid
wait $pid 2>/dev/null
check "killed mid-run" sh -c "! grep -q 'Finished match' '$T/part1.out'"
run -pgnout file="$T/part.pgn" --resume >"$T/part2.out" 2>&1
check "--resume finishes it" grep -q "Finished match: 10 of 10 games" "$T/part2.out"
check "... with the same numbers" sh -c "test \"\$(sed -n '/^Finished match/,\$p' '$T/full.out')\" = \"\$(sed -n '/^Finished match/,\$p' '$T/part2.out')\""
# the same games, moves and results; only the measured times (%emt) are the machine's
strip() { tr '\n' ' ' <"$1" | sed 's/ \[%emt [^]]*\]//g; s/  */ /g'; }
strip "$T/full.pgn" >"$T/full.s"
strip "$T/part.pgn" >"$T/part.s"
check "... and the same PGN (but the measured times)" cmp -s "$T/full.s" "$T/part.s"

# -resign and -draw adjudication: reported as adjudication, never as a rule ending
"$A" match -engine cmd=$TOGA name=toga option.OwnBook=false -engine cmd=$GLAU name=glaurung \
  option.Threads=1 option.Ponder=false option.OwnBook=false -each depth=3 -games 2 -rounds 2 \
  -openings file="$T/open.epd" format=epd -resign movecount=3 score=400 \
  -draw movenumber=30 movecount=6 score=10 -pgnout file="$T/adj.pgn" >"$T/adj.out" 2>&1
check "-resign: adjudicated, and said so" sh -c "grep -q 'Termination \"adjudication\"' '$T/adj.pgn' && grep -q 'ArbiterTermination \"adjudication\"' '$T/adj.pgn' && grep -q 'ArbiterReason \".*by adjudication (-resign: ' '$T/adj.pgn'"
"$A" pgn check "$T/adj.pgn" >/dev/null 2>&1
check "-resign: the PGN reads back" test $? -eq 0

# PGN openings: the first plies of each game
printf '[Event "a"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n[Event "b"]\n[Result "*"]\n\n1. d4 d5 2. c4 e6 *\n' >"$T/op.pgn"
"$A" match -engine cmd=$TOGA name=toga option.OwnBook=false -engine cmd=$GLAU name=glaurung \
  option.Threads=1 option.Ponder=false option.OwnBook=false -each depth=2 -games 2 -rounds 2 \
  -openings file="$T/op.pgn" format=pgn plies=3 -pgnout file="$T/op.out.pgn" >"$T/op.out" 2>&1
check "PGN openings: the book moves, marked" sh -c "grep -q '^1. e4 e5 2. Nf3 { book }' '$T/op.out.pgn' && grep -q '^1. d4 d5 2. c4 { book }' '$T/op.out.pgn'"

# readjudicate: our own PGN agrees with the laws; crafted games that do not are listed
"$A" readjudicate "$T/full.pgn" "$T/bare.pgn" "$T/dead.pgn" >"$T/rj.out" 2>&1
check "readjudicate: our games agree with the laws" test $? -eq 0
cat >"$T/wrong.pgn" <<'X'
[Event "a loss on time against a bare knight"]
[White "A"]
[Black "B"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/8/4K1N1 b - - 0 1"]
[Result "1-0"]
[Termination "time forfeit"]

1... Kd5 { Black loses on time } 1-0

[Event "fastchess style: a win on time that stands"]
[White "A"]
[Black "B"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/8/R3K3 b - - 0 1"]
[Result "1-0"]

1... Kd5 { Black loses on time } 1-0

[Event "a win scored in a dead position"]
[White "A"]
[Black "B"]
[SetUp "1"]
[FEN "8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1"]
[Result "1-0"]

1. Kd3 Kd6 1-0

[Event "an illegal move against a bare king"]
[White "A"]
[Black "B"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/8/4K3 w - - 0 1"]
[Result "0-1"]
[Termination "rules infraction"]

0-1
X
"$A" readjudicate "$T/wrong.pgn" >"$T/rj2.out" 2>&1
check "readjudicate: exit 1 when games disagree" test $? -eq 1
check "readjudicate: the bare knight's win on time is a draw" grep -q "game 1 (A - B): scored 1-0, the laws give 1/2-1/2" "$T/rj2.out"
check "readjudicate: the rook's win on time stands" sh -c "! grep -q '^game 2 ' '$T/rj2.out'"
check "readjudicate: a dead position is a draw" grep -q "game 3 (A - B): scored 1-0, the laws give 1/2-1/2" "$T/rj2.out"
check "readjudicate: 4 games, 3 disagree" grep -q "4 games, 4 checked, 3 disagree" "$T/rj2.out"
# -output format=fastchess|cutechess: fastchess's own lines, byte for byte (tests/data/match: what
# fastchess printed for the same scripted games)
SC="$here/mock-script.sh"
D="$here/../data/match"
E="-engine cmd=$SC args=winner name=Winner -engine cmd=$SC args=loser name=Loser"
O="-games 2 -openings file=$D/scripted.epd format=epd order=sequential -each depth=1"
same_as_fastchess() { # name, then the arguments
  n=$1
  shift
  "$A" match $E $O "$@" 2>&1 | grep -v '^Total Time' >"$T/fc-$n.out"
  check "fastchess's output, byte for byte: $n" cmp "$D/fastchess-$n.out" "$T/fc-$n.out"
}
same_as_fastchess penta -rounds 3 -ratinginterval 1 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 \
  -output format=fastchess
same_as_fastchess cutechess -rounds 3 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 -output format=cutechess
same_as_fastchess trinomial -rounds 3 -report penta=false -ratinginterval 2 -output format=fastchess
same_as_fastchess three -engine cmd=$SC args=loser name=Loser2 -rounds 3 -ratinginterval 2 \
  -output format=fastchess
same_as_fastchess sprt -rounds 40 -sprt elo0=0 elo1=100 alpha=0.1 beta=0.1 -ratinginterval 4 \
  -output format=fastchess
same_as_fastchess sprtcute -rounds 40 -sprt elo0=0 elo1=100 alpha=0.1 beta=0.1 -output format=cutechess
"$A" match $E $O -rounds 3 -pgnout file="$T/scripted.pgn" >/dev/null 2>&1
"$A" stats --pgn "$T/scripted.pgn" >"$T/stats-pgn.out" 2>&1
check "stats --pgn: the counts and pairs fastchess printed for the same games" sh -c \
  "grep -q 'Games: W 4, D 2, L 0' '$T/stats-pgn.out' && grep -q 'Pairs: \[0, 0, 1, 0, 2\]' '$T/stats-pgn.out' && grep -q 'fastchess (pentanomial)  Elo 279.59 +/- nan, nElo 347.44 +/- 278.00' '$T/stats-pgn.out'"
"$A" match $E $O -rounds 40 -sprt elo0=0 elo1=100 alpha=0.1 beta=0.1 >"$T/sprt-own.out" 2>&1
check "the SPRT stops a run in Arbiter's format too, with the model named" \
  grep -q '^SPRT \[0.00, 100.00\] (normalized): H1 accepted after 18 games' "$T/sprt-own.out"

# arbiter stats: the figures of ENGINES.md 5.3, 5.4 and 5.6 (fastchess's and cutechess's)
"$A" stats --wdl 36433 68692 36027 --ptnml 365 16618 36229 16974 390 --sprt 0 2 >"$T/stats.out" 2>&1
check "stats: normalized LLR 0.923 (tri) and 2.250 (penta)" sh -c \
  "grep -q 'normalized  trinomial   0.923' '$T/stats.out' && grep -q 'normalized  pentanomial 2.250' '$T/stats.out'"
check "stats: logistic -0.003/-0.006, bayesian 0.821, cutechess -0.003" sh -c \
  "grep -q 'logistic    trinomial   -0.003' '$T/stats.out' && grep -q 'logistic    pentanomial -0.006' '$T/stats.out' && grep -q 'bayesian    trinomial   0.821' '$T/stats.out' && grep -q 'cutechess   trinomial   -0.003' '$T/stats.out'"
"$A" stats --wdl 136 111 96 >"$T/stats2.out" 2>&1
check "stats: fastchess 40.70 +/- 30.43, cutechess 40.7 +/- 30.4, LOS 99.6" sh -c \
  "grep -q 'fastchess (trinomial)    Elo 40.70 +/- 30.43' '$T/stats2.out' && grep -q 'cutechess                Elo 40.7 +/- 30.4, LOS 99.6 %' '$T/stats2.out'"
check "stats: a bad count is refused" sh -c "! '$A' stats --wdl 1 x 2 2>/dev/null"

# clocks over a period boundary, in the engines' own time: both burn 400 ms a move under
# 2/1:1 (two moves in one second, then one more second): after two moves White has
# 1000 - 2 x 400 - overhead + 1000 ms, so just under 1.2 s, and the flag falls on White's fifth
# move; under a one-second sudden death it falls on the third
SC="$here/mock-script.sh"
"$A" match -engine cmd=$SC args="burn 400" name=w -engine cmd=$SC args="burn 400" name=b \
  -each tc=2/1:1 --claims off -pgnout file="$T/burn.pgn" >"$T/burn.out" 2>&1
clk2=$(grep -o '%clk 0:00:[0-9.]*' "$T/burn.pgn" | sed -n '3s/%clk 0:00://p') # White, move 2
check "period boundary: White's clock after move 2 is 1.1 to 1.2 s ($clk2)" \
  awk -v c="$clk2" 'BEGIN { exit !(c > 1.1 && c < 1.2) }'
check "period boundary: White's flag falls on move 5 (8 plies played)" sh -c \
  "grep -q 'PlyCount \"8\"' '$T/burn.pgn' && grep -q \"0-1 {White ran out of time\" '$T/burn.out'"
"$A" match -engine cmd=$SC args="burn 400" name=w -engine cmd=$SC args="burn 400" name=b \
  -each tc=1s --claims off -pgnout file="$T/burn1.pgn" >/dev/null 2>&1
check "sudden death of one second: the flag falls on White's third move" grep -q 'PlyCount "4"' "$T/burn1.pgn"

# (350 ms a move: without the delay the flag would fall on White's third move; with it a move
# costs 50 ms plus what the machine adds, so a loaded machine has 75 ms a move before 16 plies
# flag, where 400 ms left it 25 and the case failed once while two compilers ran)
"$A" match -engine cmd=$SC args="burn 350" name=w -engine cmd=$SC args="burn 350" name=b \
  -each tc="1s d0.3s" --claims off -pgnout file="$T/delay.pgn" >"$T/delay.out" 2>&1
check "a 0.3 s delay: each move costs about 0.05 s, no flag before the fivefold repetition" sh -c \
  "grep -q 'PlyCount \"16\"' '$T/delay.pgn' && grep -q 'ArbiterTermination \"fivefold_repetition\"' '$T/delay.pgn'"
# the handshake's options: Threads first, then those asked for, then Threads=1, OwnBook=false
# and Ponder=false where the engine defaults otherwise (ENGINES.md 6.5, item 3)
cat >"$T/opts.sh" <<'MOCK'
#!/bin/sh
while IFS= read -r line; do
  case $line in
  uci)
    echo "option name Hash type spin default 16 min 1 max 1024"
    echo "option name OwnBook type check default true"
    echo "option name Threads type spin default 4 min 1 max 64"
    echo "option name Ponder type check default true"
    echo uciok ;;
  setoption*) echo "$line" >>"$LOG" ;;
  isready) echo readyok ;;
  go*) echo "bestmove 0000" ;;
  quit) exit 0 ;;
  esac
done
MOCK
LOG="$T/opts.log" "$A" match -engine cmd=sh args="$T/opts.sh" name=o option.Hash=64 \
  -engine cmd=sh args="$MOCK none" name=m -each depth=1 -output format=fastchess >"$T/opts.out" 2>&1
printf '%s\n' "setoption name Threads value 1" "setoption name Hash value 64" \
  "setoption name OwnBook value false" "setoption name Ponder value false" >"$T/opts.want"
check "options: Threads first, the asked ones, then the safe defaults" cmp "$T/opts.want" "$T/opts.log"
check "the results line shows the engine's threads and hash" grep -q '(1 plies, 1t - NULL, 64MB - 1MB):' "$T/opts.out"

# pondering (ENGINES.md 6.5, item 11): go ponder on the expected reply, ponderhit when it comes,
# stop (its answer thrown away) when another move comes, a bestmove sent before the ponderhit
# taken at once; never a ping during a ponder search
for role in ponder ponder-wrong ponder-early; do
  rm -f "$T/$role.log"
  LOG="$T/$role.log" "$A" match -engine cmd=$SC args=$role name=p ponder \
    -engine cmd=$SC args="burn 50" name=b -each tc=5s+0 --claims off -pgnout file="$T/$role.pgn" \
    >"$T/$role.out" 2>&1
done
pings_in_ponder() { awk '/^go ponder/{p=1} /^isready/{if(p) bad++} /^ponderhit|^stop/{p=0} END{print bad+0}' "$1"; }
check "ponder: Ponder set, 8 ponder searches, 7 ponderhits, the game played out" sh -c \
  "grep -q 'setoption name Ponder value true' '$T/ponder.log' && [ \$(grep -c '^go ponder' '$T/ponder.log') -eq 8 ] && [ \$(grep -c '^ponderhit' '$T/ponder.log') -eq 7 ] && grep -q 'PlyCount \"16\"' '$T/ponder.pgn'"
check "ponder: no ping during a ponder search" test "$(pings_in_ponder "$T/ponder.log")" -eq 0
check "ponder, wrong guesses: stop, no ponderhit, the game played out" sh -c \
  "[ \$(grep -c '^ponderhit' '$T/ponder-wrong.log') -eq 0 ] && [ \$(grep -c '^stop' '$T/ponder-wrong.log') -ge 8 ] && grep -q 'PlyCount \"16\"' '$T/ponder-wrong.pgn'"
check "ponder, a bestmove before the ponderhit: taken, the game played out" sh -c \
  "[ \$(grep -c '^ponderhit' '$T/ponder-early.log') -eq 7 ] && grep -q 'PlyCount \"16\"' '$T/ponder-early.pgn'"

finish
