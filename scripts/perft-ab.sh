#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
#
# perft-ab.sh OLD NEW [ROUNDS]: for speed work on the move generator — two arbiter binaries
# (say the one before a change and the one after) timed on bench/perft's five positions with
# `arbiter perft DEPTH --fen FEN`, taking turns within each round so that a load from elsewhere
# on the machine hits them alike; the best wall-clock time of each is kept (ROUNDS, default 5)
# and the ratio new/old printed.  Each binary's node count must match the other's.  On this
# two-core machine a ratio within about 3% of 1 is not a difference.
# Exit status: 0, 1 the counts differ, 2 bad usage.
set -u
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 OLD_ARBITER NEW_ARBITER [ROUNDS]" >&2
  exit 2
fi
old=$1 new=$2 rounds=${3:-5}
status=0
ms() { echo $(($(date +%s%N) / 1000000)); }
for pos in \
  "startpos|6|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" \
  "kiwipete|5|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" \
  "pos3|7|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" \
  "pos4|5|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1" \
  "pos5|5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"; do
  name=${pos%%|*} rest=${pos#*|}
  depth=${rest%%|*} fen=${rest#*|}
  best_old=0 best_new=0 i=0
  while [ "$i" -lt "$rounds" ]; do
    t0=$(ms)
    a=$("$old" perft "$depth" --fen "$fen")
    t1=$(ms)
    b=$("$new" perft "$depth" --fen "$fen")
    t2=$(ms)
    if [ "$a" != "$b" ]; then
      echo "$name: the counts differ: '$a' against '$b'" >&2
      status=1
    fi
    if [ "$best_old" -eq 0 ] || [ $((t1 - t0)) -lt "$best_old" ]; then best_old=$((t1 - t0)); fi
    if [ "$best_new" -eq 0 ] || [ $((t2 - t1)) -lt "$best_new" ]; then best_new=$((t2 - t1)); fi
    i=$((i + 1))
  done
  [ "$best_old" -gt 0 ] || best_old=1
  echo "$name perft $depth: old ${best_old} ms, new ${best_new} ms, new/old $(awk "BEGIN { printf \"%.3f\", $best_new / $best_old }")"
done
exit "$status"
