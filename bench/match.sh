#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# bench/match.sh: `arbiter match` against fastchess in the same run — N games at fixed nodes
# between two instances of a fast engine, concurrency 2, the same openings; prints games per
# minute of both, and the per-move cost of Arbiter's exact checks (the game layer's replay with
# every ending: mate, stalemate, dead positions by proof, repetitions, 50/75 moves), measured by
# replaying Arbiter's own PGN.
# usage: bench/match.sh [--games N] [--nodes N] [--engine PATH] [--fastchess PATH] [--arbiter PATH]
# fastchess: build it outside the tree (git clone github.com/Disservin/fastchess; make), never
# commit it.  Without it only Arbiter's figures are printed.
set -eu
games=1000
nodes=1000
engine=/usr/games/stockfish
fastchess=${FASTCHESS:-/tmp/fc/fastchess}
arbiter=$(cd "$(dirname "$0")/.." && pwd)/build/release/arbiter
while [ $# -gt 0 ]; do
  case $1 in
  --games) games=$2; shift 2 ;;
  --nodes) nodes=$2; shift 2 ;;
  --engine) engine=$2; shift 2 ;;
  --fastchess) fastchess=$2; shift 2 ;;
  --arbiter) arbiter=$2; shift 2 ;;
  *) echo "bench/match.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# openings: every two-ply opening (400), shipped beside the script
grep -v "^#" "$(dirname "$0")/openings.epd" >"$T/open.epd"
rounds=$((games / 2))
now() { date +%s.%N; }
t0=$(now)
"$arbiter" match -engine cmd="$engine" name=a option.Threads=1 option.Hash=16 \
  -engine cmd="$engine" name=b option.Threads=1 option.Hash=16 -each nodes="$nodes" \
  -games 2 -rounds "$rounds" -concurrency 2 -openings file="$T/open.epd" format=epd order=sequential \
  -pgnout file="$T/arbiter.pgn" >"$T/arbiter.out" 2>&1
t1=$(now)
a_secs=$(echo "$t1 - $t0" | bc -l)
a_games=$(grep -c '^Finished game' "$T/arbiter.out" || true)
printf 'arbiter match:  %d games in %.1f s: %.1f games/min\n' "$a_games" "$a_secs" \
  "$(echo "$a_games * 60 / $a_secs" | bc -l)"
# the exact checks: replay the PGN through the game layer (every ending evaluated every ply)
t0=$(now)
"$arbiter" pgn check "$T/arbiter.pgn" >"$T/check.out" 2>&1 || true
t1=$(now)
plies=$(sed -n 's/.* \([0-9][0-9]*\) plies;.*/\1/p' "$T/check.out")
c_secs=$(echo "$t1 - $t0" | bc -l)
printf 'exact checks:   %d plies replayed in %.3f s: %.2f us per move\n' "$plies" "$c_secs" \
  "$(echo "$c_secs * 1000000 / $plies" | bc -l)"
if [ -x "$fastchess" ]; then
  t0=$(now)
  # (from the temporary folder: fastchess saves its config.json in the working folder)
  (cd "$T" && "$fastchess" -engine cmd="$engine" name=a option.Threads=1 option.Hash=16 \
    -engine cmd="$engine" name=b option.Threads=1 option.Hash=16 -each tc=inf nodes="$nodes" \
    -games 2 -rounds "$rounds" -concurrency 2 -openings file="$T/open.epd" format=epd order=sequential \
    -pgnout file="$T/fastchess.pgn" >"$T/fastchess.out" 2>&1) || true
  t1=$(now)
  f_secs=$(echo "$t1 - $t0" | bc -l)
  f_games=$(grep -c '^Finished game' "$T/fastchess.out" || true)
  printf 'fastchess:      %d games in %.1f s: %.1f games/min\n' "$f_games" "$f_secs" \
    "$(echo "$f_games * 60 / $f_secs" | bc -l)"
  printf 'ratio (arbiter / fastchess games per minute): %.2f\n' \
    "$(echo "($a_games / $a_secs) / ($f_games / $f_secs)" | bc -l)"
else
  echo "fastchess: not found at $fastchess (FASTCHESS=PATH or --fastchess PATH)"
fi
