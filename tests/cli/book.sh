#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter book` against Debian's polyglot: a book made by `polyglot make-book` from a real PGN
# file is read back exactly — every entry of the .bin, parsed here independently (Python's
# struct, from the format description), is answered for the positions of the games it was made
# from, and nothing else is; the moves and shares that `polyglot dump-book` prints are the ones
# `arbiter book` answers.  Then truncated and unsorted files, --dump, --seed.
# usage: book.sh ARBITER DATA_DIR        (exit 77 = skipped: no polyglot or no python3)
set -u
A=$1
DATA=$(cd "$2" && pwd)
POLYGLOT=$(command -v polyglot || ls /usr/games/polyglot 2>/dev/null || true)
if [ -z "$POLYGLOT" ]; then
  echo "SKIP: Debian's polyglot is not installed (sh scripts/deps.sh test installs it)"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "SKIP: python3 is needed to parse the book independently"
  exit 77
fi
. "$(dirname "$0")/lib.sh"

PGN=$DATA/pgn/real/lichess-jishanshaikh4-standard-first300.pgn
PLIES=16
(cd "$T" && "$POLYGLOT" make-book -pgn "$PGN" -bin book.bin -max-ply $PLIES -min-game 1 >make.log 2>&1)
check "polyglot make-book made a book" test -s "$T/book.bin"
check "the book is whole entries" test $(($(wc -c <"$T/book.bin") % 16)) -eq 0

# Every prefix of every game up to PLIES plies, as "startpos moves ..." lines.
"$A" pgn convert --to jsonl "$PGN" >"$T/games.jsonl" 2>/dev/null
python3 - "$T/games.jsonl" $PLIES >"$T/positions.txt" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    uci = json.loads(line).get("uci", [])
    for k in range(min(len(uci), int(sys.argv[2])) + 1):
        print("startpos moves " + " ".join(uci[:k]))
PY
"$A" book "$T/book.bin" <"$T/positions.txt" >"$T/answers.jsonl"
check "book answers exit 0" test $? -eq 0
check "one answer per position" test "$(wc -l <"$T/answers.jsonl")" -eq "$(wc -l <"$T/positions.txt")"

# The .bin parsed independently; every answer's moves are exactly the entries of its key, in
# file order, and the keys answered are every key in the file.
python3 - "$T/book.bin" "$T/answers.jsonl" >"$T/compare.log" 2>&1 <<'PY'
import json, struct, sys
data = open(sys.argv[1], "rb").read()
book = {}
for off in range(0, len(data), 16):
    key, move, weight, learn = struct.unpack(">QHHI", data[off:off + 16])
    book.setdefault("%016x" % key, []).append((move, weight, learn))
def text(m):
    s = "%c%c%c%c" % (97 + (m >> 6 & 7), 49 + (m >> 9 & 7), 97 + (m & 7), 49 + (m >> 3 & 7))
    return s + " nbrq"[m >> 12 & 7].strip()
castle = {"e1h1": "e1g1", "e1a1": "e1c1", "e8h8": "e8g8", "e8a8": "e8c8"}
seen, bad, answered = set(), 0, 0
for line in open(sys.argv[2]):
    a = json.loads(line)
    if "error" in a:
        print("error answer:", line.strip()); bad += 1; continue
    want = book.get(a["polyglot_key"], [])
    got = [(m["polyglot"], m["weight"], m["learn"]) for m in a["moves"]]
    if got != [(text(m), w, l) for m, w, l in want]:
        print("key", a["polyglot_key"], "book", want, "answer", got); bad += 1
    for m in a["moves"]:
        # every move of a book made from real games is legal; castling is king-takes-rook
        if m.get("uci") not in (m["polyglot"], castle.get(m["polyglot"]) if m.get("san", "").startswith("O-O") else None):
            print("move", m); bad += 1
    if a["total_weight"] != sum(w for _, w, _ in want):
        print("total", a); bad += 1
    if want: seen.add(a["polyglot_key"])
    answered += 1
missing = set(book) - seen
if missing:
    print(len(missing), "keys of the book never answered, e.g.", sorted(missing)[:3]); bad += 1
print("entries", len(data) // 16, "keys", len(book), "answers", answered, "bad", bad)
sys.exit(1 if bad else 0)
PY
check "answers are exactly the book's entries ($(tail -n 1 "$T/compare.log"))" test $? -eq 0
[ "$fail" -eq 0 ] || head -n 20 "$T/compare.log"

# polyglot's own answers: dump-book's lines give each book move in SAN with its share in
# percent; the same move must be in our answer for that position, with that share.
for colour in white black; do
  (cd "$T" && "$POLYGLOT" dump-book -bin book.bin -color $colour -out dump-$colour.txt >/dev/null 2>&1)
done
python3 - "$A" "$T/book.bin" "$T"/dump-white.txt "$T"/dump-black.txt >"$T/dump.log" 2>&1 <<'PY'
import json, re, subprocess, sys
arbiter, book = sys.argv[1], sys.argv[2]
claims = {}  # moves before -> {san: percent}
for f in sys.argv[3:]:
    for line in open(f):
        if not re.match(r"^\d+:", line): continue
        moves = []
        for tok in re.sub(r"\{[a-z]+:[^}]*\}", "", line).split()[1:]:
            if re.match(r"^\d+\.$", tok): continue
            m = re.match(r"^([^{]+)(?:\{(\d+)%\})?$", tok)
            san, pct = m.group(1), m.group(2)
            if pct is not None: claims.setdefault(" ".join(moves), {})[san] = int(pct)
            moves.append(san)
keys = sorted(claims)
out = subprocess.run([arbiter, "book", book], input="".join("startpos moves %s\n" % k for k in keys),
                     capture_output=True, text=True).stdout.splitlines()
bad = checked = 0
for k, line in zip(keys, out):
    a = json.loads(line)
    for san, pct in claims[k].items():
        m = [m for m in a.get("moves", []) if m.get("san", "").rstrip("+#") == san.rstrip("+#")]
        share = 100.0 * m[0]["weight"] / a["total_weight"] if m else -1
        if not m or pct not in (int(share), int(share + 0.5)):
            print("after '%s' polyglot says %s %d%%, we say %s" % (k, san, pct, m)); bad += 1
        checked += 1
print("positions", len(keys), "moves", checked, "bad", bad)
sys.exit(1 if bad or checked == 0 or len(out) != len(keys) else 0)
PY
check "polyglot dump-book's moves and shares ($(tail -n 1 "$T/dump.log"))" test $? -eq 0
[ "$fail" -eq 0 ] || head -n 20 "$T/dump.log"

# --dump: one line per entry; --seed: a weighted pick, the same every time.
"$A" book "$T/book.bin" --dump >"$T/dump.jsonl"
check "--dump lists every entry" test "$(wc -l <"$T/dump.jsonl")" -eq $(($(wc -c <"$T/book.bin") / 16))
p1=$("$A" book "$T/book.bin" --seed 7 startpos)
p2=$("$A" book "$T/book.bin" --seed 7 startpos)
check "--seed picks the same move twice" test "$p1" = "$p2"
check "--seed answers a pick" sh -c "echo '$p1' | grep -q '\"pick\":{\"uci\"'"
"$A" book "$T/book.bin" "e4 e5" '{"moves": ["e4", "e5"], "id": 3}' "$(printf '%s' 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2')" \
  "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5" >"$T/forms.jsonl"
check "four forms of one position, one key" test "$(grep -o '"polyglot_key":"[0-9a-f]*"' "$T/forms.jsonl" | sort -u | wc -l)" -eq 1
check "the JSON form echoes its id" grep -q '"id":3' "$T/forms.jsonl"
"$A" book "$T/book.bin" "e4 e5 Ke3" >"$T/bad.jsonl"
check "a bad move names its index" grep -q '"code":"move_illegal".*"move_index":2' "$T/bad.jsonl"

# Damaged files: the offset is named, exit 1.
head -c 100 "$T/book.bin" >"$T/trunc.bin"
"$A" book "$T/trunc.bin" startpos >/dev/null 2>"$T/err"
check "a truncated book exits 1" test $? -eq 1
check "a truncated book names offset 96" grep -q "truncated.*byte offset 96" "$T/err"
{ tail -c 16 "$T/book.bin"; head -c 32 "$T/book.bin"; } >"$T/unsorted.bin"
"$A" book "$T/unsorted.bin" startpos >/dev/null 2>"$T/err"
check "an unsorted book exits 1" test $? -eq 1
check "an unsorted book names offset 16" grep -q "unsorted.*byte offset 16" "$T/err"
"$A" book "$T/nonexistent.bin" startpos >/dev/null 2>&1
check "a missing file exits 2" test $? -eq 2
: >"$T/empty.bin"
check "an empty book answers no moves" sh -c "'$A' book '$T/empty.bin' startpos | grep -q '\"moves\":\[\]'"
finish
