#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# CLI contracts of DESIGN.md: exit statuses, --help, perft output format, and `arbiter query`
# answering one line per request, in order, never aborting on bad input.
# usage: contracts.sh ARBITER DATA_DIR
set -u
A=$1
DATA=$2
. "$(dirname "$0")/lib.sh"

for c in perft query; do
  "$A" $c --help >"$T/help" 2>&1
  check "$c --help exits 0" test $? -eq 0
  check "$c --help prints usage" grep -q "usage: arbiter $c" "$T/help"
done
"$A" --help >/dev/null 2>&1
check "--help exits 0" test $? -eq 0
"$A" nonsense >/dev/null 2>&1
check "unknown command exits 2" test $? -eq 2
"$A" perft >/dev/null 2>&1
check "perft without depth exits 2" test $? -eq 2
"$A" perft 3 --fen "not a fen" >/dev/null 2>"$T/err"
check "perft bad FEN exits 2" test $? -eq 2
check "perft bad FEN says why" grep -q "bad FEN" "$T/err"

# perft output: Stockfish's format; depth 3 from the start is 8902 (published).
"$A" perft 3 >"$T/out"
check "perft 3 = 8902" grep -qx "Nodes searched: 8902" "$T/out"
"$A" perft 2 --divide >"$T/out"
check "divide lists 20 moves" test "$(grep -c '^[a-h][1-8][a-h][1-8][qrbn]*: [0-9]*$' "$T/out")" -eq 20
check "divide has e2e4: 20" grep -qx "e2e4: 20" "$T/out"
check "divide ends with the total" test "$(tail -n 1 "$T/out")" = "Nodes searched: 400"
check "divide has a blank line before the total" test -z "$(tail -n 2 "$T/out" | head -n 1)"

# perft --epd reports failures and exits 1
printf '%s\n' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401' \
  'garbage ;D1 3' >"$T/bad.epd"
"$A" perft --epd "$T/bad.epd" >"$T/out"
check "epd with wrong count exits 1" test $? -eq 1
check "epd summary" grep -qx "0 passed, 2 failed" "$T/out"
check "epd failure names depth, expected and got" grep -q "depth 2 expected 401 got 400" "$T/out"

# query: every request line gets exactly one answer, in order, exit 0
{
  echo '{"id": 1}'
  echo 'garbage'
  echo ''
  echo '{"id": 3, "fen": "8/8/8/8 w - - 0 1"}'
  echo '{"id": 4, "moves": ["e4", "e5", "Ke3"]}'
  printf '\001\002\377\376 binary\n'
  head -c 3000000 /dev/zero | tr '\0' 'x'
  echo
  echo '{"id": 7, "moves": ["e4", "Nf6", "e5", "d5"]}'
  printf '{"id": 8, "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}'
} >"$T/req"
"$A" query <"$T/req" >"$T/ans"
check "query exits 0 on bad input" test $? -eq 0
check "query answers 8 requests (blank line skipped)" test "$(wc -l <"$T/ans")" -eq 8
check "every answer is an object" test "$(grep -c '^{.*}$' "$T/ans")" -eq 8
check "answer 1 in order" sh -c "sed -n 1p '$T/ans' | grep -q '\"id\":1'"
check "answer 2 is a json error" sh -c "sed -n 2p '$T/ans' | grep -q '\"code\":\"json\"'"
check "answer 3 is a fen error" sh -c "sed -n 3p '$T/ans' | grep -q '\"code\":\"fen_syntax\"'"
check "answer 4 names the move index" sh -c "sed -n 4p '$T/ans' | grep -q '\"move_index\":2'"
check "answer 6 is line_too_long" sh -c "sed -n 6p '$T/ans' | grep -q 'line_too_long'"
check "answer 7 has ep square" sh -c "sed -n 7p '$T/ans' | grep -q 'w KQkq d6 0 3'"
check "last line without newline answered" sh -c "sed -n 8p '$T/ans' | grep -q '\"id\":8'" 
# query: null moves (issue 18), an EPD record, board editing
{
  echo '{"moves": ["e4", "--", "d4"]}'
  echo '{"fen": "4k3/8/8/8/8/8/8/4K2r w - - 0 1", "moves": ["0000"]}'
  echo '{"epd": "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \\"WAC.002\\";"}'
  echo '{"edit": {"clear": true, "put": {"a1": "K", "h8": "k"}, "turn": "b"}}'
} >"$T/req18"
"$A" query <"$T/req18" >"$T/ans18"
check "query plays a null move" sh -c "sed -n 1p '$T/ans18' | grep -q '\"moves_san\":\[\"e4\",\"--\",\"d4\"\]'"
check "query refuses a null move in check" sh -c "sed -n 2p '$T/ans18' | grep -q 'null_in_check'"
check "query reads an EPD record" sh -c "sed -n 3p '$T/ans18' | grep -q '\"uci\":\[\"b3b2\"\]'"
check "query edits a board" sh -c "sed -n 4p '$T/ans18' | grep -q '\"fen\":\"7k/8/8/8/8/8/8/K7 b - - 0 1\"'"
# query "explain": why each move is illegal, in order, with the article (FIDE 2023)
{
  echo '{"fen": "4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "explain": ["e1g1", "h1h8", "e2e4"]}'
  echo '{"fen": "4r1k1/8/8/8/4N3/8/8/4K3 w - - 0 1", "explain": ["e4f6"], "history": false}'
  echo '{"explain": ["e7e5"], "explain_by": "black"}'
  echo '{"explain": ["nonsense"]}'
} >"$T/reqx"
"$A" query <"$T/reqx" >"$T/ansx"
check "query explain answers 4 requests" test "$(wc -l <"$T/ansx")" -eq 4
check "explain: castling through check names f1 and the rook" sh -c "sed -n 1p '$T/ansx' | grep -q '\"explain\":\[{\"move\":\"e1g1\",\"legal\":false,\"reason\":\"castling_through_check\",\"article\":\"3.8.2.2\",\"message\":\"[^\"]*through f1, which the rook on f8 attacks'"
check "explain: a legal move, in order" sh -c "sed -n 1p '$T/ansx' | grep -q '{\"move\":\"h1h8\",\"legal\":true,\"reason\":\"legal\"'"
check "explain: no piece" sh -c "sed -n 1p '$T/ansx' | grep -q '\"move\":\"e2e4\",\"legal\":false,\"reason\":\"no_piece\"'"
check "explain: pinned names the pinner" sh -c "sed -n 2p '$T/ansx' | grep -q '\"reason\":\"pinned\",\"article\":\"3.9.2\",\"message\":\"the knight on e4 is pinned[^\"]*rook on e8'"
check "explain: not your turn" sh -c "sed -n 3p '$T/ansx' | grep -q '\"reason\":\"not_your_turn\",\"article\":\"1.2\"'"
check "explain: bad move text is a request error" sh -c "sed -n 4p '$T/ansx' | grep -q '\"code\":\"move_syntax\".*\"field\":\"explain\"'"
# referee: one answer per event, in order, exit 0, errors that keep the stream going
{
  echo '{"type":"move","by":"white","move":"e4"}'
  echo '{"type":"move","by":"white","move":"d4"}'
  echo 'garbage'
  echo '{"type":"teleport","by":"black"}'
  echo '{"type":"move","by":"black","move":"Ke3"}'
  echo '{"type":"resign","by":"black"}'
  echo '{"type":"move","by":"white","move":"d4"}'
  echo '{"type":"start","fen":"8/8/8/4k3/8/8/8/3QK3 w - - 0 1","rules":"fide"}'
  echo '{"type":"resign","by":"white"}'
  echo '{"type":"start","rules":"nonsense"}'
  printf '\377\376\n'
} >"$T/events"
"$A" referee <"$T/events" >"$T/ref"
check "referee exits 0 on bad input" test $? -eq 0
check "referee answers 11 events" test "$(wc -l <"$T/ref")" -eq 11
check "referee 1: move ok" sh -c "sed -n 1p '$T/ref' | grep -q '\"ok\":true.*\"san\":\"e4\"'"
check "referee 2: not your turn" sh -c "sed -n 2p '$T/ref' | grep -q 'not_your_turn'"
check "referee 3: json error" sh -c "sed -n 3p '$T/ref' | grep -q '\"code\":\"json\"'"
check "referee 4: unknown event" sh -c "sed -n 4p '$T/ref' | grep -q 'unknown_event'"
check "referee 5: illegal move" sh -c "sed -n 5p '$T/ref' | grep -q 'illegal_move'"
check "referee 6: resignation" sh -c "sed -n 6p '$T/ref' | grep -q '\"result\":\"1-0\".*resignation'"
check "referee 7: game over" sh -c "sed -n 7p '$T/ref' | grep -q 'game_over'"
check "referee 9: resigning against a lone king draws" sh -c "sed -n 9p '$T/ref' | grep -q '1/2-1/2'"
check "referee 10: bad rules" sh -c "sed -n 10p '$T/ref' | grep -q 'bad_event'"
echo '{"type":"move","by":"white","move":"--"}' | "$A" referee >"$T/refnull"
check "referee refuses a null move" sh -c "grep -q '\"ok\":false' '$T/refnull'"
# referee: the arbiter's clock events (pause, resume, adjust_time) and a timed game in PGN.
# 5 minutes, no increment, White's clock from t=0: 300 - 10 = 290 s after 1.e4 at 10 s; Black
# paused from 20 s to 80 s, so at 90 s it has 300 - 10 - 10 = 280 s, plus 30 s added.
{
  echo '{"type":"start","control":"5+0","t":0,"white":"W","black":"B"}'
  echo '{"type":"move","move":"e4","t":10000}'
  echo '{"type":"pause","t":20000}'
  echo '{"type":"move","move":"e5","t":30000}'
  echo '{"type":"resume","t":80000}'
  echo '{"type":"adjust_time","side":"black","add_ms":30000,"t":90000}'
  echo '{"type":"adjust_time","side":"black","t":90000}'
  echo '{"type":"move","move":"e5","t":90000}'
} >"$T/clockev"
rm -f "$T/game.pgn"
"$A" referee --pgn "$T/game.pgn" <"$T/clockev" >"$T/ref"
check "referee pause: clocks stopped" sh -c "sed -n 3p '$T/ref' | grep -q '\"running\":null.*\"paused\":true'"
check "referee pause: no move while paused" sh -c "sed -n 4p '$T/ref' | grep -q 'clock_state'"
check "referee resume" sh -c "sed -n 5p '$T/ref' | grep -q '\"running\":\"black\"'"
check "referee adjust_time" sh -c "sed -n 6p '$T/ref' | grep -q '\"time_added\":{\"side\":\"black\",\"ms\":30000}.*\"black_ms\":310000'"
check "referee adjust_time needs ms" sh -c "sed -n 7p '$T/ref' | grep -q 'bad_event'"
check "referee --pgn clock comments" grep -q '1. e4 { \[%clk 0:04:50\] } 1... e5 { \[%clk 0:05:10\] }' "$T/game.pgn"
"$A" pgn check "$T/game.pgn" >/dev/null 2>&1
check "referee --pgn output checks clean" test $? -eq 0
"$A" referee --help | grep -q "usage: arbiter referee"
check "referee --help" test $? -eq 0
"$A" referee --rules nonsense </dev/null >/dev/null 2>&1
check "referee bad --rules exits 2" test $? -eq 2

# dead: one verdict per FEN line, comments and blank lines skipped, bad lines answered
printf '%s\n' '# final positions' '' 'k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1' 'not a fen' \
  '8/8/8/4k3/8/8/8/3QK3 w - - 0 1 ;T01' >"$T/fens"
"$A" dead --budget 2000 <"$T/fens" >"$T/dead"
check "dead exits 0" test $? -eq 0
check "dead answers 3 lines" test "$(wc -l <"$T/dead")" -eq 3
check "dead 1: locked walls" sh -c "sed -n 1p '$T/dead' | grep -q '\"dead\":true.*locked_walls'"
check "dead 2: error with its line" sh -c "sed -n 2p '$T/dead' | grep -q '\"line\":4,\"error\"'"
check "dead 3: a lone king cannot mate" sh -c "sed -n 3p '$T/dead' | grep -q '\"black\":{\"verdict\":\"unwinnable\",\"proof\":\"material\"'"
# dead --accept: a position that cannot arise (Black in check, White to move) is refused with
# its problems, analysed and marked when accepted; a forced line is proven by search.
printf '%s\n' 'k7/8/8/8/8/8/8/R3K3 w - - 0 1' '8/8/8/8/8/8/1Q2K3/1k6 b - - 0 81' >"$T/composed"
"$A" dead --budget 2000 <"$T/composed" >"$T/dead"
check "dead refuses a composed position" sh -c "sed -n 1p '$T/dead' | grep -q '\"error\".*\"problem\":\"opponent_in_check\"'"
check "dead 2: a queen that must be taken, proof search" sh -c "sed -n 2p '$T/dead' | grep -q '\"dead\":true,\"white\":{\"verdict\":\"unwinnable\",\"proof\":\"search\"'"
"$A" dead --budget 2000 --accept all <"$T/composed" >"$T/dead"
check "dead --accept all analyses and marks it" sh -c "sed -n 1p '$T/dead' | grep -q '\"problems\":\[{\"problem\":\"opponent_in_check\".*\"white\":{\"verdict\":\"winnable\"'"
"$A" dead --accept opponent_in_check,too_much_material <"$T/composed" >/dev/null
check "dead --accept with problem names" test $? -eq 0
"$A" dead --accept nonsense </dev/null >/dev/null 2>&1
check "dead bad --accept exits 2" test $? -eq 2
"$A" dead --help | grep -q "usage: arbiter dead"
check "dead --help" test $? -eq 0

finish
