#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
#
# bench/dead_cha.sh: unknown sides on the labelled community positions, Arbiter against CHA (the
# Chess Unwinnability Analyzer, github.com/miguel-ambrona/D3-Chess) in the same run, at the same
# node budget.
#
# usage: bench/dead_cha.sh [--budget NODES] [--cha PATH] [--bench PATH] [FILE]
#   FILE     labelled positions (default ../shared/data/dead/community-positions.txt: two
#            characters "WB", "W-", "-B" or "--", a space, a FEN without counters)
#   --cha    the cha binary (default $CHA, else /tmp/cha/src-tree/src/cha); without it, only
#            Arbiter's figures are printed
#   --bench  Arbiter's bench/dead (default build/release/bench/dead)
#
# CHA is GPL and never part of this tree: build it outside, e.g. in /tmp/cha — its README asks
# for Stockfish 51deae8 built as a shared library (lib/stockfish: `make`, which needs the net
# file only as a name: an empty nn-62ef826d1a6d.nnue and `make all` do), then in src/
# `g++ -o cha util.cpp semistatic.cpp dynamic.cpp cha.cpp main.cpp -O3 -lpthread -lstockfish`
# with -I/-L pointing at that build.  CHA reads "FEN white|black" lines and answers each with
# "winnable ...", "unwinnable ..." or "undetermined ..."; -limit sets its node budget (default
# 500000).  Its nodes are not ours: the figure to compare is unknown sides at equal budget, with
# the seconds each took.
set -eu
budget=500000
cha=${CHA:-/tmp/cha/src-tree/src/cha}
bench=build/release/bench/dead
file=../shared/data/dead/community-positions.txt
while [ $# -gt 0 ]; do
  case $1 in
  --budget) budget=$2; shift 2 ;;
  --cha) cha=$2; shift 2 ;;
  --bench) bench=$2; shift 2 ;;
  -*) echo "usage: $0 [--budget NODES] [--cha PATH] [--bench PATH] [FILE]" >&2; exit 2 ;;
  *) file=$1; shift ;;
  esac
done
if [ ! -f "$file" ]; then
  echo "bench/dead_cha.sh: $file not found, skipped"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s.%N)
"$bench" --labels --budget "$budget" "$file" > "$tmp/arbiter.txt"
end=$(date +%s.%N)
unknown=$(sed -n 's/.*unknown sides \([0-9]*\) of \([0-9]*\).*/\1/p' "$tmp/arbiter.txt")
sides=$(sed -n 's/.*unknown sides \([0-9]*\) of \([0-9]*\).*/\2/p' "$tmp/arbiter.txt")
wrong=$(sed -n 's/.*wrong verdicts \([0-9]*\).*/\1/p' "$tmp/arbiter.txt")
printf 'budget %s nodes, %s sides of %s\n' "$budget" "$sides" "$file"
printf '  arbiter  unknown %5s  wrong %3s  %7.1f s\n' "$unknown" "$wrong" \
  "$(echo "$end - $start" | bc)"
if [ ! -x "$cha" ]; then
  echo "  cha      not found ($cha): build it outside the tree, see the comment at the top"
  exit 0
fi
# One query per side; the labels in the same order.
awk '!/^#/ && NF >= 5 { fen = $2 " " $3 " " $4 " " $5
  print fen " white"; print fen " black"
  print (substr($1, 1, 1) == "W" ? "can" : "cannot") > "'"$tmp/labels"'"
  print (substr($1, 2, 1) == "B" ? "can" : "cannot") > "'"$tmp/labels"'" }' "$file" > "$tmp/queries"
start=$(date +%s.%N)
"$cha" -limit "$budget" < "$tmp/queries" | grep -E '^(winnable|unwinnable|undetermined)' |
  awk '{ print $1 }' > "$tmp/cha.txt"
end=$(date +%s.%N)
paste "$tmp/labels" "$tmp/cha.txt" | awk -v t="$(echo "$end - $start" | bc)" '
  { n++ }
  $2 == "undetermined" { u++ }
  ($2 ~ /^winnable/ && $1 == "cannot") || ($2 == "unwinnable" && $1 == "can") { w++ }
  END { printf "  cha      unknown %5d  wrong %3d  %7.1f s  (%d answers)\n", u, w, t, n }'
