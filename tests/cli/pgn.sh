#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter pgn`: exit statuses, the report format and summary line of `check`, --json, -j N
# giving the same output as one thread, `convert --to uci|lan|fen|jsonl|pgn` and `filter`.
# Expected values are written by hand from the games (UCI, FENs, filters' matches).
# With --corpus: `arbiter pgn check` over the shared corpus (../shared/data/pgn): every game
# of real/ clean, every file of nasty/ read without a crash; exit 77 (skipped) without it.
# usage: pgn.sh ARBITER DATA_DIR
#        pgn.sh --corpus ARBITER SHARED_PGN_DIR
set -u

if [ "${1:-}" = "--corpus" ]; then
  A=$2
  C=$3
  if [ ! -d "$C/real" ] || [ ! -d "$C/nasty" ]; then
    echo "SKIPPED: no PGN corpus at $C"
    exit 77
  fi
  T=$(mktemp -d)
  trap 'rm -rf "$T"' EXIT
  fail=0
  find "$C/real" -type f -name '*.pgn' | sort >"$T/real"
  test -s "$T/real" || { echo "FAIL: no file in $C/real"; exit 1; }
  while read -r f; do
    timeout 600 "$A" pgn check -j 2 "$f" >"$T/out" 2>"$T/err"
    rc=$?
    if [ $rc -ne 0 ]; then
      echo "FAIL: $f: exit status $rc (0 expected: every game is clean)"
      head -n 5 "$T/out" "$T/err"
      tail -n 1 "$T/out"
      fail=$((fail + 1))
    else
      echo "ok: $f: $(tail -n 1 "$T/out")"
    fi
  done <"$T/real"
  find "$C/nasty" -type f -name '*.pgn' | sort >"$T/nasty"
  n=0
  while read -r f; do
    n=$((n + 1))
    timeout 120 "$A" pgn check "$f" >/dev/null 2>"$T/err"
    rc=$?
    case $rc in
    0 | 1) ;;
    *)
      echo "FAIL: $f: exit status $rc (0 or 1 expected; 124 is the timeout, >128 a signal)"
      head -n 5 "$T/err"
      fail=$((fail + 1))
      ;;
    esac
  done <"$T/nasty"
  echo "nasty/: $n files read"
  echo "$fail failures"
  test "$fail" -eq 0
  exit $?
fi

A=$1
DATA=$2
P=$DATA/pgn
. "$(dirname "$0")/lib.sh"
same() { # description, file, expected text
  printf '%s\n' "$3" >"$T/want"
  if cmp -s "$2" "$T/want"; then
    pass=$((pass + 1))
  else
    echo "FAIL: $1"
    diff "$T/want" "$2" | head -n 20
    fail=$((fail + 1))
  fi
}
DASH=$(printf '\342\200\223') # the en dash between the players' names

cat >"$T/clean.pgn" <<'EOF'
[Event "clean"]
[Site "?"]
[Date "2024.01.01"]
[Round "1"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 1-0

[Event "clean2"]
[Site "?"]
[Date "2024.01.02"]
[Round "2"]
[White "Gamma"]
[Black "Delta"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
EOF
cat >"$T/bad.pgn" <<'EOF'
[Event "bad"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "Alpha"]
[Black "Beta"]
[Result "*"]

1. e4 e5 2. Ke3 Nc6 *
EOF

# ---- exit statuses ----
"$A" pgn --help >"$T/help" 2>&1
check "pgn --help exits 0" test $? -eq 0
check "pgn --help prints usage" grep -q "usage: arbiter pgn check" "$T/help"
"$A" pgn check "$T/clean.pgn" >"$T/out"
check "check: clean file exits 0" test $? -eq 0
"$A" pgn check "$T/bad.pgn" >"$T/out"
check "check: file with an error exits 1" test $? -eq 1
"$A" pgn check "$T/no-such-file.pgn" >/dev/null 2>"$T/err"
check "check: missing file exits 2" test $? -eq 2
check "check: missing file is named" grep -q "no-such-file.pgn" "$T/err"
"$A" pgn check "$T/clean.pgn" "$T/no-such-file.pgn" >/dev/null 2>&1
check "check: clean file and missing file exits 2" test $? -eq 2
"$A" pgn >/dev/null 2>&1
check "pgn without subcommand exits 2" test $? -eq 2
"$A" pgn frobnicate "$T/clean.pgn" >/dev/null 2>&1
check "unknown subcommand exits 2" test $? -eq 2
"$A" pgn check --bogus "$T/clean.pgn" >/dev/null 2>&1
check "unknown option exits 2" test $? -eq 2
"$A" pgn check -j 0 "$T/clean.pgn" >/dev/null 2>&1
check "-j 0 exits 2" test $? -eq 2
"$A" pgn check --to uci "$T/clean.pgn" >/dev/null 2>&1
check "check --to exits 2" test $? -eq 2
"$A" pgn convert --to nonsense "$T/clean.pgn" >/dev/null 2>&1
check "convert --to nonsense exits 2" test $? -eq 2
"$A" pgn filter "$T/clean.pgn" >/dev/null 2>&1
check "filter without a filter exits 2" test $? -eq 2
"$A" pgn filter --result 2-0 "$T/clean.pgn" >/dev/null 2>&1
check "filter --result 2-0 exits 2" test $? -eq 2
"$A" pgn filter --eco Z "$T/clean.pgn" >/dev/null 2>&1
check "filter --eco Z exits 2" test $? -eq 2
"$A" pgn filter --position "not a fen" "$T/clean.pgn" >/dev/null 2>&1
check "filter --position with a bad FEN exits 2" test $? -eq 2

# ---- the report and the summary ----
"$A" pgn check "$T/clean.pgn" >"$T/out"
check "clean: only the summary line" test "$(wc -l <"$T/out")" -eq 1
check "clean: summary counts" grep -q "^2 games, 0 with errors (0 errors, 0 warnings), 0 skipped (other variants), 12 plies; " "$T/out"
check "clean: summary format" grep -Eq '^[0-9]+ games, [0-9]+ with errors \([0-9]+ errors, [0-9]+ warnings\), [0-9]+ skipped \(other variants\), [0-9]+ plies; [0-9.]+ MB in [0-9.]+ s \([0-9.]+ MB/s\)$' "$T/out"
"$A" pgn check -q "$T/clean.pgn" >"$T/out"
check "-q: no summary" test ! -s "$T/out"

"$A" pgn check "$T/bad.pgn" >"$T/out"
check "bad: report then summary" test "$(wc -l <"$T/out")" -eq 2
check "bad: report format FILE:LINE:COL: game N (White - Black): ply P: message" \
  grep -qF "$T/bad.pgn:9:13: game 1 (Alpha $DASH Beta): ply 3: " "$T/out"
check "bad: the report has a message" grep -Eq "ply 3: .*[A-Za-z]" "$T/out"
check "bad: summary counts" grep -q "^1 games, 1 with errors (" "$T/out"
check "bad: summary is the last line" sh -c "tail -n 1 '$T/out' | grep -q '^1 games, 1 with errors'"

# The same game read from stdin, and as '-'
"$A" pgn check <"$T/bad.pgn" >"$T/out"
check "stdin: exit 1" test $? -eq 1
check "stdin: the report" grep -qF ":9:13: game 1 (Alpha $DASH Beta): ply 3: " "$T/out"
"$A" pgn check - <"$T/bad.pgn" >"$T/out2"
# (the summary line ends with the time taken: compare the reports only)
check "'-' is stdin" test "$(grep -v ' games, ' "$T/out")" = "$(grep -v ' games, ' "$T/out2")"

# Line numbers of a game far into a file: the lines before it counted by wc.
cat "$P"/real/pychess-dortmund.pgn "$P"/real/lichess-jishanshaikh4-standard-first300.pgn \
  "$P"/real/lichess-jishanshaikh4-chess960-fromposition-first300.pgn >"$T/big.pgn"
before=$(wc -l <"$T/big.pgn")
printf '\n' >>"$T/big.pgn"
cat "$T/bad.pgn" >>"$T/big.pgn"
"$A" pgn check -q "$T/big.pgn" >"$T/out"
check "a game after 1.9 MB: exit 1" test $? -eq 1
check "a game after 1.9 MB: one report" test "$(wc -l <"$T/out")" -eq 1
check "a game after 1.9 MB: line $((before + 10)), game 948" \
  grep -qF "$T/big.pgn:$((before + 10)):13: game 948 (Alpha $DASH Beta): ply 3: " "$T/out"

# ---- --json ----
# jsonlines.py FILE [EXPR...]: every line of FILE is JSON (UTF-8); each EXPR holds, with o the list of
# the lines' objects.
cat >"$T/jsonlines.py" <<'EOF'
import json, sys
bad = 0
lines = open(sys.argv[1], 'rb').read().split(b'\n')
if lines and lines[-1] == b'':
    lines.pop()
o = []
for i, raw in enumerate(lines, 1):
    try:
        o.append(json.loads(raw.decode('utf-8')))
    except Exception as e:
        print('line %d is not JSON (%s): %r' % (i, e, raw[:120]))
        bad += 1
if bad:
    sys.exit(1)
for expr in sys.argv[2:]:
    try:
        ok = eval(expr)
    except Exception as e:
        ok = False
        print('%s: %s' % (expr, e))
    if not ok:
        print('false: %s' % expr)
        bad += 1
sys.exit(1 if bad else 0)
EOF
"$A" pgn check --json "$T/bad.pgn" >"$T/out"
check "--json: exit 1" test $? -eq 1
check "--json: two lines" test "$(wc -l <"$T/out")" -eq 2
check "--json: the problem and the summary" python3 "$T/jsonlines.py" "$T/out" \
  "o[0]['line'] == 9 and o[0]['column'] == 13 and o[0]['game'] == 1 and o[0]['ply'] == 3" \
  "o[0]['white'] == 'Alpha' and o[0]['black'] == 'Beta' and o[0]['problem'] == 'move_illegal'" \
  "o[0]['file'].endswith('bad.pgn') and len(o[0]['message']) > 0" \
  "'summary' in o[1]"
"$A" pgn check --json "$T/clean.pgn" >"$T/out"
check "--json clean: only the summary" python3 "$T/jsonlines.py" "$T/out" "len(o) == 1 and 'summary' in o[0]"
# Every line of --json is JSON, on every data file (garbage bytes, Latin-1, BOM, ...).
mkdir "$T/json"
i=0
for f in $(find "$P" -name '*.pgn' | sort); do
  i=$((i + 1))
  "$A" pgn check --json "$f" >"$T/json/$i" 2>/dev/null
  rc=$?
  check "--json on $f: exit $rc" test $rc -le 1
  echo "$T/json/$i $f" >>"$T/json.list"
done
cat >"$T/alljson.py" <<'EOF'
import json, sys
bad = 0
for entry in open(sys.argv[1]).read().splitlines():
    out, name = entry.split(' ', 1)
    for i, raw in enumerate(open(out, 'rb').read().splitlines(), 1):
        try:
            json.loads(raw.decode('utf-8'))
        except Exception as e:
            print('FAIL: --json on %s: line %d is not JSON (%s): %r' % (name, i, e, raw[:100]))
            bad += 1
            break
sys.exit(1 if bad else 0)
EOF
check "--json: every line of every data file's report is JSON" python3 "$T/alljson.py" "$T/json.list"

# ---- -j 2 gives the output of -j 1 (a multi-MB input, cut in chunks) ----
find "$P" -name '*.pgn' | sort >"$T/files"
: >"$T/all.pgn"
for k in 1 2; do
  while read -r f; do
    cat "$f" >>"$T/all.pgn"
    printf '\n\n' >>"$T/all.pgn"
  done <"$T/files"
done
check "the -j input is over 4 MB" test "$(wc -c <"$T/all.pgn")" -gt 4000000
"$A" pgn check -j 1 "$T/all.pgn" >"$T/j1" 2>"$T/j1e"
rc1=$?
"$A" pgn check -j 2 "$T/all.pgn" >"$T/j2" 2>"$T/j2e"
rc2=$?
check "check -j 2: same exit status" test $rc1 -eq $rc2
check "check -j 2: same reports" sh -c "sed '\$d' '$T/j1' >'$T/j1r'; sed '\$d' '$T/j2' >'$T/j2r'; cmp -s '$T/j1r' '$T/j2r'"
check "check -j 2: same counts" sh -c "tail -n 1 '$T/j1' | sed 's/;.*//' >'$T/s1'; tail -n 1 '$T/j2' | sed 's/;.*//' >'$T/s2'; cmp -s '$T/s1' '$T/s2'"
check "check -j 2: the reports are not empty" test "$(wc -l <"$T/j1")" -gt 100
"$A" pgn convert -j 1 "$T/all.pgn" >"$T/c1" 2>"$T/c1e"
"$A" pgn convert -j 2 "$T/all.pgn" >"$T/c2" 2>"$T/c2e"
check "convert -j 2: same games" cmp -s "$T/c1" "$T/c2"
check "convert -j 2: same reports" sh -c "sed '\$d' '$T/c1e' >'$T/c1r'; sed '\$d' '$T/c2e' >'$T/c2r'; cmp -s '$T/c1r' '$T/c2r'"

# ---- convert ----
"$A" pgn convert --to uci "$T/clean.pgn" >"$T/out"
check "convert --to uci: exit 0" test $? -eq 0
same "convert --to uci" "$T/out" "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 e1g1 g8f6
f2f3 e7e5 g2g4 d8h4"
"$A" pgn convert --to uci <"$T/clean.pgn" >"$T/out"
same "convert --to uci from stdin" "$T/out" "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 e1g1 g8f6
f2f3 e7e5 g2g4 d8h4"
"$A" pgn convert --to lan "$T/clean.pgn" >"$T/out"
same "convert --to lan" "$T/out" "e2-e4 e7-e5 Ng1-f3 Nb8-c6 Bf1-b5 a7-a6 O-O Ng8-f6
f2-f3 e7-e5 g2-g4 Qd8-h4#"
sed -n '11,$p' "$T/clean.pgn" >"$T/fools.pgn"
"$A" pgn convert --to fen "$T/fools.pgn" >"$T/out"
same "convert --to fen" "$T/out" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2
rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3
"
# Chess960 castling in UCI is king-takes-rook (notation.h).
cat >"$T/960.pgn" <<'EOF'
[Event "960"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]
[Variant "Chess960"]
[SetUp "1"]
[FEN "5k1r/5p2/8/8/8/8/5P2/5K1R w Hh - 0 1"]

1. O-O O-O *
EOF
"$A" pgn convert --to uci "$T/960.pgn" >"$T/out"
same "convert --to uci, Chess960 castling" "$T/out" "f1h1 f8h8"
cat >"$T/clk.pgn" <<'EOF'
[Event "j"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "W \"quoted\""]
[Black "B"]
[Result "0-1"]

1. f3 { [%clk 0:01:00] } 1... e5 { [%clk 0:00:59] } 2. g4 Qh4# 0-1
EOF
"$A" pgn convert --to jsonl "$T/clk.pgn" >"$T/out"
check "convert --to jsonl: one line" test "$(wc -l <"$T/out")" -eq 1
check "convert --to jsonl: fields" python3 "$T/jsonlines.py" "$T/out" \
  "o[0]['tags']['White'] == 'W \"quoted\"' and o[0]['tags']['Result'] == '0-1'" \
  "o[0]['uci'] == ['f2f3', 'e7e5', 'g2g4', 'd8h4']" \
  "o[0]['san'] == ['f3', 'e5', 'g4', 'Qh4#']" \
  "[(p, t.strip()) for p, t in o[0]['comments']] == [(1, '[%clk 0:01:00]'), (2, '[%clk 0:00:59]')]" \
  "o[0]['clocks'] == [[1, 60000], [2, 59000]]" \
  "o[0]['result'] == '0-1'" \
  "o[0]['final'] == 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3'"
# convert --to pgn: every game written, and what it wrote checks clean.
"$A" pgn convert "$P"/real/*.pgn "$P"/real/tcec/*.pgn >"$T/conv.pgn" 2>"$T/err"
check "convert real files: exit 0" test $? -eq 0
check "convert real files: 979 games written" test "$(grep -c '^\[Event ' "$T/conv.pgn")" -eq 979
"$A" pgn check "$T/conv.pgn" >"$T/out"
check "convert output re-checks with 0 errors" test $? -eq 0
check "convert output: 979 games, 0 with errors" grep -q "^979 games, 0 with errors (0 errors" "$T/out"
"$A" pgn check --strict "$T/conv.pgn" >"$T/out"
check "convert output is strict export format" test $? -eq 0
"$A" pgn convert "$T/conv.pgn" >"$T/conv2.pgn" 2>/dev/null
check "convert of convert is the same text" cmp -s "$T/conv.pgn" "$T/conv2.pgn"
check "convert output: movetext lines under 80 columns" sh -c "! grep -v '^\[' '$T/conv.pgn' | LC_ALL=C.UTF-8 grep -q '^.\{80,\}'"
"$A" pgn convert "$T/bad.pgn" >"$T/out" 2>"$T/err"
check "convert drops a game with an error: exit 1" test $? -eq 1
check "convert drops a game with an error: nothing written" test ! -s "$T/out"
check "convert: the report goes to stderr" grep -qF "$T/bad.pgn:9:13: game 1 (Alpha $DASH Beta): ply 3: " "$T/err"
"$A" pgn convert "$T/clk.pgn" >"$T/out"
check "convert --to pgn keeps %clk comments as they are" grep -qF "1. f3 { [%clk 0:01:00] } 1... e5 { [%clk 0:00:59] } 2. g4 Qh4# 0-1" "$T/out"

# ---- filter ----
count() { grep -c '^\[Event ' "$1"; }
FT=$P/nasty/pgn-extract-tests/filter-test.pgn
"$A" pgn filter --player Fischer "$FT" >"$T/out"
check "filter --player Fischer: 3 games" test "$(count "$T/out")" -eq 3
"$A" pgn filter --player karpov "$FT" >"$T/out"
check "filter --player karpov (any case): 1 game" test "$(count "$T/out")" -eq 1
check "filter --player karpov: the Candidates game" grep -q '^\[Event "Candidates Match"\]' "$T/out"
"$A" pgn filter --white Fischer "$FT" >"$T/out"
check "filter --white Fischer: 1 game" test "$(count "$T/out")" -eq 1
"$A" pgn filter --result 1-0 "$FT" >"$T/out"
check "filter --result 1-0: 2 games" test "$(count "$T/out")" -eq 2
"$A" pgn filter --result 1/2-1/2 "$FT" >"$T/out"
check "filter --result 1/2-1/2: 1 game" test "$(count "$T/out")" -eq 1
"$A" pgn filter --eco B90-B99 "$FT" >"$T/out"
check "filter --eco B90-B99: 1 game" test "$(count "$T/out")" -eq 1
check "filter --eco B90-B99: the B97 game" grep -q '^\[ECO "B97"\]' "$T/out"
"$A" pgn filter --eco E56 "$FT" >"$T/out"
check "filter --eco E56: 1 game" test "$(count "$T/out")" -eq 1
"$A" pgn filter --eco C00-E99 "$FT" >"$T/out"
check "filter --eco C00-E99: 3 games" test "$(count "$T/out")" -eq 3
"$A" pgn filter --player Spassky --result 0-1 "$FT" >"$T/out"
check "filter --player Spassky --result 0-1: 1 game" test "$(count "$T/out")" -eq 1
"$A" pgn filter --dedupe "$P/nasty/pgn-extract-tests/duplicates.pgn" >"$T/out" 2>/dev/null
check "filter --dedupe: 2 games" test "$(count "$T/out")" -eq 2
check "filter --dedupe: the first of each" sh -c "grep '^\[Event ' '$T/out' | tr -d '\n' | grep -qF '[Event \"Test Game 1\"][Event \"Test Game 3 (Different)\"]'"
# The Najdorf after 5... a6, reached in filter-test game 2 and in the 8 accepted games of
# mixed-valid-invalid.pgn.
NAJDORF="rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6"
"$A" pgn filter --position "$NAJDORF" "$FT" >"$T/out"
check "filter --position: 1 game" test "$(count "$T/out")" -eq 1
check "filter --position: the Najdorf game" grep -q '^\[Round "2"\]' "$T/out"
"$A" pgn filter --position "$NAJDORF" "$P/nasty/synthetic/mixed-valid-invalid.pgn" >"$T/out" 2>/dev/null
check "filter --position on mixed-valid-invalid: 8 games" test "$(count "$T/out")" -eq 8
"$A" pgn filter --position "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" "$FT" >"$T/out"
check "filter --position after 1. e4: 2 games" test "$(count "$T/out")" -eq 2
"$A" pgn filter --player Fischer --to uci "$FT" >"$T/out"
same "filter --to uci" "$T/out" "d2d4 g8f6 c2c4 e7e6 g1f3 d7d5 b1c3 f8e7 c1g5
e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6
e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7"

# ---- issue 18: starting comments, SetUp without FEN, dead positions, game trees, evals ----
printf '{ Starting comment } 1. d3 *\n' | "$A" pgn convert --to jsonl - >"$T/out"
check "a tagless game's starting comment in jsonl" python3 "$T/jsonlines.py" "$T/out" \
  "o[0]['comments'] == [[0, 'Starting comment']]"
printf '{ Starting comment } 1. d3 *\n' | "$A" pgn convert --to pgn - >"$T/out"
check "a tagless game's starting comment in PGN" grep -qx '{ Starting comment } 1. d3 \*' "$T/out"
printf '[Event "s"]\n[Result "*"]\n[SetUp "1"]\n\n1. e4 *\n' >"$T/setup.pgn"
"$A" pgn check --strict "$T/setup.pgn" >"$T/out"
check "--strict: SetUp 1 without FEN is reported" grep -q 'SetUp "1" without a FEN tag' "$T/out"
check "lenient: SetUp 1 without FEN passes" "$A" pgn check -q "$T/setup.pgn"
# 1. g4 locks the pawn wall: a dead position (FIDE 5.2.2), on which play goes on.
for r in "1/2-1/2" "1-0"; do
  printf '[Event "d"]\n[Result "%s"]\n[SetUp "1"]\n[FEN "8/4k3/8/p1p1p1p1/P1P1P3/6P1/4K3/8 w - - 0 1"]\n\n1. g4 Kd7 2. Kd3 Ke7 %s\n' "$r" "$r" >"$T/dead-$(echo "$r" | tr / _).pgn"
done
"$A" pgn check "$T/dead-1_2-1_2.pgn" >"$T/out"
check "dead position then a draw: exit 0" test $? -eq 0
check "dead position then a draw: a warning naming the ply" grep -q 'ply 2: warning: .*position after ply 1 was dead' "$T/out"
"$A" pgn check "$T/dead-1-0.pgn" >"$T/out"
check "dead position then a win: exit 1" test $? -eq 1
check "dead position then a win: FIDE makes it a draw" grep -q 'FIDE 5.2.2 makes the game a draw' "$T/out"
cat >"$T/tree.pgn" <<'EOF'
[Event "tree"]
[Result "*"]

{ Start } 1. e4 {[%eval 0.17,22] [%clk 0:03:00]} ( {alt} 1. d4 $1 {[%csl Gd4,Re5][%cal Gd2d4]} 1... d5 )
1... e5 $2 { good [%eval #-3] } 2. Nf3 *
EOF
"$A" pgn convert --to jsonl "$T/tree.pgn" >"$T/out"
check "jsonl: evals with their depth" python3 "$T/jsonlines.py" "$T/out" \
  "o[0]['evals'] == [[1, '0.17', 22], [2, '#-3']]" "o[0]['clocks'] == [[1, 180000]]"
"$A" pgn convert --tree "$T/tree.pgn" >"$T/out"
same "convert --tree: the game written from its tree" "$T/out" '[Event "tree"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

{ Start } 1. e4 { [%eval 0.17,22] [%clk 0:03:00] } ({ alt } 1. d4 $1
{ [%csl Gd4,Re5] [%cal Gd2d4] } 1... d5) 1... e5 $2 { good [%eval #-3] } 2. Nf3
*
'


# Compressed input: .pgn.zst (lichess's database) and .pgn.gz, told by their first bytes (stdin
# too), read as a stream: the same games and moves as the plain file; concatenated frames and
# members read on; a truncated or corrupt file is exit 2 with the reason and where.
need zstd zstd
need gzip gzip
R=$P/real/lichess-jishanshaikh4-standard-first300.pgn
"$A" pgn convert --to uci "$R" >"$T/plain.uci" 2>/dev/null
zstd -q -19 -c "$R" >"$T/g.pgn.zst"
gzip -c "$R" >"$T/g.pgn.gz"
for f in "$T/g.pgn.zst" "$T/g.pgn.gz"; do
  "$A" pgn check "$f" >"$T/out" 2>&1
  check "$(basename "$f"): exit 0" test $? -eq 0
  check "$(basename "$f"): the 300 games" grep -q '^300 games, 0 with errors' "$T/out"
  "$A" pgn convert --to uci "$f" >"$T/c.uci" 2>/dev/null
  check "$(basename "$f"): the same moves as the plain file" cmp -s "$T/plain.uci" "$T/c.uci"
  "$A" pgn convert -j 2 --to uci <"$f" >"$T/c.uci" 2>/dev/null
  check "$(basename "$f") on stdin, -j 2: the same moves" cmp -s "$T/plain.uci" "$T/c.uci"
done
cat "$T/g.pgn.zst" "$T/g.pgn.zst" >"$T/two.zst"
cat "$T/g.pgn.gz" "$T/g.pgn.gz" >"$T/two.gz"
for f in "$T/two.zst" "$T/two.gz"; do
  "$A" pgn check "$f" >"$T/out" 2>&1
  check "$(basename "$f"): two frames or members, 600 games" grep -q '^600 games, 0 with errors' "$T/out"
done
head -c 100000 "$T/g.pgn.zst" >"$T/cut.zst"
"$A" pgn check "$T/cut.zst" >/dev/null 2>"$T/err"
check "truncated zstd: exit 2" test $? -eq 2
check "truncated zstd: said so" grep -q 'cut.zst: truncated zstd data' "$T/err"
head -c 100000 "$T/g.pgn.gz" >"$T/cut.gz"
"$A" pgn check "$T/cut.gz" >/dev/null 2>"$T/err"
check "truncated gzip: exit 2" test $? -eq 2
check "truncated gzip: said so" grep -q 'cut.gz: truncated gzip data' "$T/err"
python3 -c "
import sys
for src, dst in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    d = bytearray(open(src, 'rb').read()); d[5000] ^= 0xFF; open(dst, 'wb').write(d)
" "$T/g.pgn.zst" "$T/bad.zst" "$T/g.pgn.gz" "$T/bad.gz"
"$A" pgn check "$T/bad.zst" >/dev/null 2>"$T/err"
check "corrupt zstd: exit 2" test $? -eq 2
check "corrupt zstd: said so, with the byte" grep -q 'bad.zst: corrupt zstd data at compressed byte [0-9]*: ' "$T/err"
"$A" pgn check "$T/bad.gz" >/dev/null 2>"$T/err"
check "corrupt gzip: exit 2" test $? -eq 2
check "corrupt gzip: said so, with the byte" grep -q 'bad.gz: corrupt gzip data at compressed byte [0-9]*: ' "$T/err"

finish
