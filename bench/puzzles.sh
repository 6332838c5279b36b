#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# bench/puzzles.sh: `arbiter puzzles mine` speed, games a second, on one thread and on two —
# the shared 14k lichess games when ../shared is there, else the 300 games in tests/data.
# usage: bench/puzzles.sh [ARBITER]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
A=${1:-$top/build/release/arbiter}
pgn=$top/../shared/data/pgn/real/lichess-jishanshaikh4-standard-14k.pgn
[ -f "$pgn" ] || pgn=$(ls "$top"/tests/data/pgn/real/lichess-*standard-first300.pgn | head -1)
games=$(grep -c '^\[Event ' "$pgn")
out=$(mktemp)
for j in 1 2; do
  t0=$(date +%s.%N)
  "$A" puzzles mine "$pgn" -j $j -o "$out" 2>/dev/null
  t1=$(date +%s.%N)
  n=$(($(wc -l <"$out") - 1))
  awk -v g="$games" -v n="$n" -v a="$t0" -v b="$t1" -v j="$j" \
    'BEGIN { printf "bench/puzzles: -j %d: %d games in %.1f s, %.0f games/s, %d puzzles\n", j, g, b - a, g / (b - a), n }'
done
rm -f "$out"
